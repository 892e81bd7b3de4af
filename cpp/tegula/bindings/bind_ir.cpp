// Bindings for ir/: Function (print, parse, verify), the Builder the Python front end drives, and op traits.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>

#include "tegula/array/promotion.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/ir/builder.hpp"
#include "tegula/ir/op_traits.hpp"
#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

ir::op_kind to_kind(const std::string& text) {
  auto k = ir::op_from_text(text);
  if (!k) fail(error_kind::invalid_argument, "unknown tile IR op '", text, "'");
  return *k;
}

// Attribute values from Python: int, float, str, a list/tuple of ints, or ("dtype", name).
ir::attribute to_attribute(nb::handle v) {
  if (PyBool_Check(v.ptr())) return std::int64_t(v.ptr() == Py_True);
  if (PyLong_Check(v.ptr())) return nb::cast<std::int64_t>(v);
  if (PyFloat_Check(v.ptr())) return nb::cast<double>(v);
  if (PyUnicode_Check(v.ptr())) return nb::cast<std::string>(v);
  if (PyTuple_Check(v.ptr()) && nb::len(v) == 2 && PyUnicode_Check(nb::borrow<nb::tuple>(v)[0].ptr()) &&
      nb::cast<std::string>(nb::borrow<nb::tuple>(v)[0]) == "dtype")
    return dtype_named(nb::cast<std::string>(nb::borrow<nb::tuple>(v)[1]));
  if (PyTuple_Check(v.ptr()) || PyList_Check(v.ptr())) return nb::cast<std::vector<std::int64_t>>(v);
  fail(error_kind::type_error, "unsupported attribute value of type ", nb::type_name(v.type()).c_str());
}

ir::type to_type(const std::string& dtype, nb::handle shape_or_rank, bool is_array) {
  if (is_array) return ir::type::array(dtype_named(dtype), nb::cast<int>(shape_or_rank));
  return ir::type::tile(dtype_named(dtype), nb::cast<std::vector<std::int64_t>>(shape_or_rank));
}

// A builder that owns its function until finish() hands it out.
struct py_builder {
  std::unique_ptr<ir::function> f;
  std::unique_ptr<ir::builder> b;
  explicit py_builder(const std::string& name) : f(new ir::function()), b() {
    f->name = name;
    b.reset(new ir::builder(*f));
  }
  ir::builder& get() {
    if (!b) fail(error_kind::invalid_argument, "this Builder has finished; start a new one");
    return *b;
  }
};

}  // namespace

void bind_ir(nb::module_& m) {
  // ops.def's traits (ir/op_traits.hpp), the only list of them: the Python tile front end reads its categories here.
  m.def("op_traits", []() {
    nb::dict out;
    for (std::size_t i = 0; i < ir::op_count; ++i) {
      const auto k = ir::op_kind(i);
      const ir::op_traits& t = ir::traits_of(k);
      nb::dict d;
      d["category"] = ir::name(t.category);
      d["dtypes"] = ir::name(t.dtypes);
      d["result"] = ir::name(t.result);
      d["effect"] = ir::name(t.effect);
      d["elementwise"] = ir::is_elementwise(k);
      d["float_math"] = ir::is_float_math(k);
      d["int_only"] = ir::is_int_only(k);
      d["side_effects"] = ir::has_side_effects(k);
      out[ir::info(k).text] = d;
    }
    return out;
  }, "{op text: {category, dtypes, result, effect, elementwise, float_math, int_only, side_effects}} from ops.def");
  // ir::float_loop, the one authority for it: the dtype float math (exp, sqrt, atan2, ...) computes
  // in for an input dtype (bool/int8/uint8 float16, int16/uint16 float32, wider ints float64; floats and complex stay).
  m.def("float_loop", [](const std::string& dtype) { return std::string(ir::name(ir::float_loop(dtype_named(dtype)))); },
        nb::arg("dtype"), "NumPy's float loop dtype for float-only math on `dtype` (ir/dtype.hpp)");

  nb::class_<ir::function>(m, "Function", "A tile IR function (immutable from Python).")
      .def_prop_ro("name", [](const ir::function& f) { return f.name; })
      .def("print", [](const ir::function& f, bool locations) { return ir::print(f, locations); },
           nb::arg("locations") = false)
      .def("verify", [](const ir::function& f) { ir::verify(f); })
      .def("__str__", [](const ir::function& f) { return ir::print(f, false); })
      .def_prop_ro("params", [](const ir::function& f) {
        nb::list out;
        for (const auto& p : f.params) {
          const ir::type& t = f.type_of(p.value);
          out.append(nb::make_tuple(p.name, t.is_array() ? "array" : "tile", std::string(ir::name(t.elem)),
                                    t.is_array() ? nb::cast(t.rank()) : nb::cast(t.shape)));
        }
        return out;
      }, "(name, 'array'|'tile', dtype, rank or shape) per parameter");
  m.def("parse_ir", [](const std::string& text, const std::string& filename) { return ir::parse(text, filename); },
        nb::arg("text"), nb::arg("filename") = "<tir>");

  nb::class_<py_builder>(m, "Builder", "Builds a tile IR function; every op's result type is inferred.")
      .def(nb::init<const std::string&>(), nb::arg("name"))
      .def("set_location", [](py_builder& b, const std::string& file, int line, int column) {
        b.get().set_location(ir::location{file, line, column});
      })
      .def("add_param", [](py_builder& b, const std::string& name, const std::string& dtype, nb::handle shape_or_rank,
                           bool is_array) { return b.get().add_param(name, to_type(dtype, shape_or_rank, is_array)); })
      .def("type_of", [](py_builder& b, ir::value_id v) {
        const ir::type& t = b.get().func().type_of(v);
        return nb::make_tuple(t.is_array() ? "array" : "tile", std::string(ir::name(t.elem)), t.shape);
      }, "('tile'|'array', dtype name, shape) of a value (an array's shape has one -1 per axis)")
      .def("set_name", [](py_builder& b, ir::value_id v, const std::string& name) {
        b.get().func().values.at(std::size_t(v)).name = name;
      })
      .def("create", [](py_builder& b, const std::string& op, std::vector<ir::value_id> operands, nb::dict attrs) {
        std::vector<std::pair<std::string, ir::attribute>> a;
        for (auto [k, v] : attrs) a.emplace_back(nb::cast<std::string>(k), to_attribute(v));
        return b.get().create(to_kind(op), std::move(operands), std::move(a));
      }, nb::arg("op"), nb::arg("operands"), nb::arg("attrs") = nb::dict())
      .def("constant", [](py_builder& b, nb::handle value, const std::string& dtype, std::vector<std::int64_t> shape) {
        ir::type t = ir::type::tile(dtype_named(dtype), std::move(shape));
        if (PyFloat_Check(value.ptr())) return b.get().constant(nb::cast<double>(value), t);
        return b.get().constant(nb::cast<std::int64_t>(value), t);
      }, nb::arg("value"), nb::arg("dtype"), nb::arg("shape") = std::vector<std::int64_t>{})
      .def("cast", [](py_builder& b, ir::value_id v, const std::string& d) { return b.get().cast(v, dtype_named(d)); })
      .def("broadcast", [](py_builder& b, ir::value_id v, std::vector<std::int64_t> s) { return b.get().broadcast(v, s); })
      .def("binary", [](py_builder& b, const std::string& op, ir::value_id x, ir::value_id y) {
        return b.get().binary(to_kind(op), x, y);
      })
      .def("weak_scalar", [](py_builder& b, double v, bool is_int, ir::value_id like) {
        return b.get().weak_scalar(v, is_int, like);
      })
      .def("where", [](py_builder& b, ir::value_id c, ir::value_id x, ir::value_id y) { return b.get().where(c, x, y); })
      .def("begin_for", [](py_builder& b, ir::value_id lb, ir::value_id ub, ir::value_id step, std::vector<ir::value_id> init) {
        auto a = b.get().begin_for(lb, ub, step, std::move(init));
        return std::make_pair(a.iv, a.carried);
      })
      .def("end_for", [](py_builder& b, std::vector<ir::value_id> y) { return b.get().end_for(std::move(y)); })
      .def("begin_if", [](py_builder& b, ir::value_id c) { b.get().begin_if(c); })
      .def("begin_else", [](py_builder& b, std::vector<ir::value_id> y) { b.get().begin_else(std::move(y)); })
      .def("end_if", [](py_builder& b, std::vector<ir::value_id> y) { return b.get().end_if(std::move(y)); })
      .def("begin_while", [](py_builder& b, std::vector<ir::value_id> init) {
        return b.get().begin_while(std::move(init)).carried;
      })
      .def("while_do", [](py_builder& b, ir::value_id cond, std::vector<ir::value_id> fwd) {
        return b.get().while_do(cond, std::move(fwd)).carried;
      })
      .def("end_while", [](py_builder& b, std::vector<ir::value_id> y) { return b.get().end_while(std::move(y)); })
      .def("begin_reduce", [](py_builder& b, const std::string& op, ir::value_id tile, ir::value_id identity,
                              std::int64_t axis, bool flag) {
        return b.get().begin_reduce(to_kind(op), tile, identity, axis, flag).carried;
      })
      .def("end_reduce", [](py_builder& b, ir::value_id v) { return b.get().end_reduce(v); })
      .def("finish", [](py_builder& b) {
        b.get().finish();
        b.b.reset();
        ir::function out = std::move(*b.f);
        b.f.reset();
        return out;
      }, "Closes the body and returns the Function; the Builder cannot be used after.");
}

}  // namespace tegula::bind
