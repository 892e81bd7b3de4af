// Bindings for array/promotion: NumPy 2's dtype rules (NEP 50 result_type, can_cast), the one authority that
// tegula.numpy's result_type, can_cast, ufunc out= checks and concatenate's dtype all ask.
#include <nanobind/stl/string.h>

#include "tegula/array/promotion.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

void bind_promotion(nb::module_& m) {
  m.def("result_type", [](nb::args operands) {
    using kind = array::operand_kind::kind;
    std::vector<array::operand_kind> ops;
    for (nb::handle h : operands) {
      PyObject* o = h.ptr();
      if (PyUnicode_Check(o)) ops.push_back(array::operand_kind::of(dtype_named(nb::cast<std::string>(h))));
      else if (PyBool_Check(o)) ops.push_back({kind::py_bool});
      else if (PyLong_Check(o)) ops.push_back({kind::py_int});
      else if (PyFloat_Check(o)) ops.push_back({kind::py_float});
      else if (PyComplex_Check(o)) ops.push_back({kind::py_complex});
      else throw nb::type_error("result_type takes dtype names and Python bool, int, float or complex scalars");
    }
    if (ops.empty()) fail(error_kind::invalid_argument, "at least one array or dtype is required");
    return std::string(ir::name(array::result_type(ops)));
  }, "np.result_type (NEP 50) over dtype names (strong) and Python scalars (weak), as a dtype name.");
  m.def("can_cast", [](const std::string& from, const std::string& to, const std::string& casting) {
    return array::can_cast(dtype_named(from), dtype_named(to), array::casting_from_name(casting));
  }, nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe", "np.can_cast between dtype names.");
}

}  // namespace tegula::bind
