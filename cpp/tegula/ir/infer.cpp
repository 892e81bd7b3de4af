// Shape and type inference for every non-region op of ops.def, with NumPy's shape and dtype rules.
#include "tegula/ir/infer.hpp"

#include <algorithm>
#include <limits>

#include "tegula/ir/op_traits.hpp"
#include "tegula/support/error.hpp"

// A new op in ops.def must be handled in the switch below: make a missing case an error. The elementwise ops
// share one case (elementwise_cases.inc) and follow their ops.def traits (operand dtypes, result dtype).
#pragma GCC diagnostic error "-Wswitch"

namespace tegula::ir {
namespace {

using shape_t = std::vector<std::int64_t>;

// Checks one op's operands and attributes; every failure names the op (callers add the location).
struct checker {
  const op& o;
  const std::vector<type>& in;

  const char* opname() const { return info(o.kind).text; }

  template <class... Parts>
  [[noreturn]] void bad(error_kind k, Parts&&... parts) const {
    fail(k, opname(), ": ", std::forward<Parts>(parts)...);
  }

  void count(std::size_t n) const {
    if (in.size() != n) bad(error_kind::invalid_argument, "expected ", n, " operands, got ", in.size());
  }
  void at_least(std::size_t n) const {
    if (in.size() < n) bad(error_kind::invalid_argument, "expected at least ", n, " operands, got ", in.size());
  }
  const type& tile(std::size_t i) const {
    if (!in[i].is_tile()) bad(error_kind::type_error, "operand ", i, " is ", to_string(in[i]), ", expected a tile");
    return in[i];
  }
  const type& array(std::size_t i) const {
    if (!in[i].is_array()) bad(error_kind::type_error, "operand ", i, " is ", to_string(in[i]), ", expected an array");
    return in[i];
  }
  const type& scalar(std::size_t i, const char* what) const {
    if (!in[i].is_scalar()) bad(error_kind::type_error, what, " must be a scalar tile, got ", to_string(in[i]));
    return in[i];
  }

  const attribute& attr(const char* a, const char* kind) const {
    const attribute* v = o.attr(a);
    if (!v) bad(error_kind::invalid_argument, "missing ", kind, " attribute '", a, "'");
    return *v;
  }
  std::int64_t int_attr(const char* a) const {
    const attribute& v = attr(a, "int");
    if (!std::holds_alternative<std::int64_t>(v)) bad(error_kind::invalid_argument, "attribute '", a, "' must be an int");
    return std::get<std::int64_t>(v);
  }
  bool flag(const char* a) const {
    std::int64_t v = int_attr(a);
    if (v != 0 && v != 1) bad(error_kind::invalid_argument, "attribute '", a, "' must be 0 or 1, got ", v);
    return v == 1;
  }
  const shape_t& ints_attr(const char* a) const {
    const attribute& v = attr(a, "int list");
    if (!std::holds_alternative<shape_t>(v)) bad(error_kind::invalid_argument, "attribute '", a, "' must be an int list");
    return std::get<shape_t>(v);
  }
  const shape_t& shape_attr(const char* a) const {
    const shape_t& s = ints_attr(a);
    for (auto d : s)
      if (d <= 0) bad(error_kind::invalid_argument, "attribute '", a, "' ", shape_string(s), " must have positive extents");
    return s;
  }
  const std::string& string_attr(const char* a) const {
    const attribute& v = attr(a, "string");
    if (!std::holds_alternative<std::string>(v)) bad(error_kind::invalid_argument, "attribute '", a, "' must be a string");
    return std::get<std::string>(v);
  }
  dtype dtype_attr(const char* a) const {
    const attribute& v = attr(a, "dtype");
    if (!std::holds_alternative<dtype>(v)) bad(error_kind::invalid_argument, "attribute '", a, "' must be a dtype");
    return std::get<dtype>(v);
  }
  int axis_of(int rank) const {
    std::int64_t a = int_attr("axis");
    auto n = normalize_axis(a, rank);
    if (!n) bad(error_kind::invalid_argument, "axis ", a, " is out of range for rank ", rank);
    return *n;
  }

  // Elementwise operands: tiles of one type.
  const type& same_tiles(std::size_t first, std::size_t n) const {
    for (std::size_t i = first; i < first + n; ++i) tile(i);
    for (std::size_t i = first + 1; i < first + n; ++i)
      if (in[i] != in[first])
        bad(in[i].elem != in[first].elem ? error_kind::type_error : error_kind::invalid_argument, "operand types ",
            to_string(in[first]), " and ", to_string(in[i]), " differ");
    return in[first];
  }
  void dtype_is(bool ok, dtype t, const char* expected) const {
    if (!ok) bad(error_kind::type_error, "requires ", expected, " operands, got ", name(t));
  }

  type constant() const {
    count(0);
    dtype t = dtype_attr("dtype");
    shape_t s = o.attr("shape") ? shape_attr("shape") : shape_t{};
    const attribute& v = attr("value", "int or float");
    if (std::holds_alternative<double>(v)) {
      if (!is_float(t)) bad(error_kind::type_error, "float value for a ", name(t), " constant");
    } else if (std::holds_alternative<std::int64_t>(v)) {
      std::int64_t x = std::get<std::int64_t>(v);
      bool fits = true;
      if (is_bool(t)) fits = x == 0 || x == 1;
      else if (is_signed_int(t) && size_bytes(t) < 8) fits = x >= -(std::int64_t(1) << (size_bits(t) - 1)) && x < (std::int64_t(1) << (size_bits(t) - 1));
      else if (is_unsigned_int(t) && size_bytes(t) < 8) fits = x >= 0 && x < (std::int64_t(1) << size_bits(t));
      // uint64 values above INT64_MAX are stored as their two's-complement bit pattern.
      if (!fits) bad(error_kind::invalid_argument, "value ", x, " does not fit ", name(t));
    } else {
      bad(error_kind::invalid_argument, "attribute 'value' must be an int or a float");
    }
    return type::tile(t, s);
  }

  type load() const {
    at_least(1);
    const type& a = array(0);
    count(std::size_t(1 + a.rank()));
    indices(1, a.rank(), "index");
    const shape_t& s = shape_attr("shape");
    if (int(s.size()) != a.rank())
      bad(error_kind::invalid_argument, "shape ", shape_string(s), " has rank ", s.size(), ", the array has rank ", a.rank());
    padding(a.elem);
    return type::tile(a.elem, s);
  }
  void padding(dtype t) const {
    const std::string& p = string_attr("padding");
    if (p != "zero" && p != "neg_inf" && p != "pos_inf" && p != "nan")
      bad(error_kind::invalid_argument, "padding '", p, "' is not one of zero, neg_inf, pos_inf, nan");
    if (p != "zero" && !is_float(t)) bad(error_kind::type_error, "padding '", p, "' needs a float array, got ", name(t));
  }
  void indices(std::size_t first, int n, const char* what) const {
    for (std::size_t i = first; i < first + std::size_t(n); ++i) {
      const type& t = scalar(i, what);
      if (t.elem != dtype::i32 && t.elem != dtype::i64)
        bad(error_kind::type_error, what, " ", i - first, " must be int32 or int64, got ", name(t.elem));
    }
  }

  void store() const {
    at_least(1);
    const type& a = array(0);
    count(std::size_t(a.rank() + 2));
    indices(1, a.rank(), "index");
    const type& v = tile(in.size() - 1);
    if (v.rank() != a.rank())
      bad(error_kind::invalid_argument, "stored tile ", to_string(v), " has rank ", v.rank(), ", the array has rank ", a.rank());
    if (v.elem != a.elem) bad(error_kind::type_error, "stored tile ", to_string(v), " does not match ", to_string(a));
  }

  // gather / scatter / atomics: (array, offsets..., values..., [mask]) with `values` value tiles.
  type scattered(int values, bool may_be_bool) const {
    at_least(1);
    const type& a = array(0);
    if (a.rank() < 1) bad(error_kind::invalid_argument, "needs an array of rank >= 1");
    bool mask = flag("has_mask");
    count(std::size_t(1 + a.rank() + values + (mask ? 1 : 0)));
    const type& first = tile(1);
    for (int i = 1; i <= a.rank(); ++i) {
      const type& t = tile(std::size_t(i));
      if (!is_int(t.elem)) bad(error_kind::type_error, "offsets must be integer tiles, got ", to_string(t));
      if (t.shape != first.shape) bad(error_kind::invalid_argument, "offset tiles ", to_string(first), " and ", to_string(t), " differ in shape");
    }
    if (!may_be_bool && is_bool(a.elem)) bad(error_kind::type_error, "not supported for bool arrays");
    for (int i = 0; i < values; ++i) {
      const type& v = tile(std::size_t(1 + a.rank() + i));
      if (v.shape != first.shape || v.elem != a.elem)
        bad(v.elem != a.elem ? error_kind::type_error : error_kind::invalid_argument, "value ", to_string(v),
            " must be ", to_string(type::tile(a.elem, first.shape)));
    }
    if (mask) {
      const type& m = tile(in.size() - 1);
      if (m != type::tile(dtype::b1, first.shape))
        bad(error_kind::type_error, "mask ", to_string(m), " must be ", to_string(type::tile(dtype::b1, first.shape)));
    }
    return type::tile(a.elem, first.shape);
  }

  // mma(a, b, acc): a (M, K), b (K, N), acc (M, N); the result is acc's type.
  type mma() const {
    count(3);
    const type& a = tile(0);
    const type& b = tile(1);
    const type& c = tile(2);
    if (a.rank() != 2 || b.rank() != 2 || c.rank() != 2)
      bad(error_kind::invalid_argument, "operands must be 2-D tiles, got ", to_string(a), ", ", to_string(b), ", ",
          to_string(c));
    if (a.shape[1] != b.shape[0])
      bad(error_kind::invalid_argument, "inner extents differ: a ", shape_string(a.shape), " @ b ", shape_string(b.shape));
    if (c.shape[0] != a.shape[0] || c.shape[1] != b.shape[1])
      bad(error_kind::invalid_argument, "accumulator ", shape_string(c.shape), " must be (", a.shape[0], ", ",
          b.shape[1], ") for a ", shape_string(a.shape), " @ b ", shape_string(b.shape));
    if (a.elem != b.elem) bad(error_kind::type_error, "a and b differ in dtype: ", name(a.elem), " and ", name(b.elem));
    dtype t = a.elem;
    bool ok = false;
    if (t == dtype::f16 || t == dtype::bf16 || t == dtype::f32 || is_float8(t)) ok = c.elem == dtype::f32;
    else if (t == dtype::f64) ok = c.elem == dtype::f64;
    else if (is_int(t) && !is_bool(t)) ok = c.elem == dtype::i32 || c.elem == dtype::i64;
    else bad(error_kind::type_error, "unsupported input dtype ", name(t));
    if (!ok)
      bad(error_kind::type_error, "a ", name(t), " product accumulates in ",
          is_int(t) ? "int32 or int64" : t == dtype::f64 ? "float64" : "float32", ", got a ", name(c.elem), " accumulator");
    if (flag("tf32") && t != dtype::f32) bad(error_kind::type_error, "tf32 applies to float32 inputs, got ", name(t));
    return c;
  }

  // The operand dtype rule of ops.def's `dtypes` column.
  void operand_dtypes_ok(dtype t) const {
    switch (traits_of(o.kind).dtypes) {
      case operand_dtypes::any: break;
      case operand_dtypes::numeric: dtype_is(!is_bool(t), t, "numeric (not bool)"); break;
      case operand_dtypes::floating: dtype_is(is_float(t), t, "float"); break;
      case operand_dtypes::int_bool: dtype_is(!is_float(t), t, "bool or integer"); break;
      case operand_dtypes::integer: dtype_is(is_int(t), t, "integer"); break;
    }
  }

  // Unary elementwise ops whose result has the operand's type (astype and bitcast are not: from_attr).
  type unary() const {
    count(1);
    const type& t = tile(0);
    operand_dtypes_ok(t.elem);
    return t;
  }

  // Binary elementwise ops and comparisons: operands of one type; comparisons give bool.
  type binary() const {
    count(2);
    const type& t = same_tiles(0, 2);
    operand_dtypes_ok(t.elem);
    if (traits_of(o.kind).result == result_dtype::boolean) return type::tile(dtype::b1, t.shape);
    return t;
  }

  // Every elementwise op: astype, bitcast (dtype from the attribute) and where have rules of their own; the
  // others are unary or binary by their ops.def category.
  type elementwise() const {
    switch (o.kind) {
      case op_kind::astype:
        count(1);
        return type::tile(dtype_attr("dtype"), tile(0).shape);
      case op_kind::bitcast: {
        count(1);
        const type& t = tile(0);
        dtype to = dtype_attr("dtype");
        if (is_bool(to) || is_bool(t.elem) || size_bytes(to) != size_bytes(t.elem))
          bad(error_kind::type_error, "cannot reinterpret ", name(t.elem), " as ", name(to), " (sizes differ or bool)");
        return type::tile(to, t.shape);
      }
      case op_kind::where: {
        count(3);
        const type& cond = tile(0);
        const type& t = same_tiles(1, 2);
        if (cond.elem != dtype::b1) bad(error_kind::type_error, "condition must be bool, got ", to_string(cond));
        if (cond.shape != t.shape)
          bad(error_kind::invalid_argument, "condition ", to_string(cond), " and values ", to_string(t), " differ in shape");
        return t;
      }
      default: return is_elementwise_unary(o.kind) ? unary() : binary();
    }
  }

  type reshape() const {
    count(1);
    const type& t = tile(0);
    const shape_t& s = shape_attr("shape");
    if (checked_numel(s) != t.numel())
      bad(error_kind::invalid_argument, "cannot reshape ", shape_string(t.shape), " into ", shape_string(s));
    return type::tile(t.elem, s);
  }
  std::int64_t checked_numel(const shape_t& s) const {
    std::int64_t n = 1;
    for (auto d : s)
      if (__builtin_mul_overflow(n, d, &n)) bad(error_kind::invalid_argument, "shape ", shape_string(s), " is too large");
    return n;
  }

  type permute() const {
    count(1);
    const type& t = tile(0);
    const shape_t& p = ints_attr("perm");
    std::vector<bool> seen(t.shape.size());
    bool ok = p.size() == t.shape.size();
    for (std::size_t i = 0; ok && i < p.size(); ++i) {
      ok = p[i] >= 0 && p[i] < t.rank() && !seen[std::size_t(p[i])];
      if (ok) seen[std::size_t(p[i])] = true;
    }
    if (!ok) bad(error_kind::invalid_argument, "perm ", shape_string(p), " is not a permutation of rank ", t.rank());
    shape_t s;
    for (auto a : p) s.push_back(t.shape[std::size_t(a)]);
    return type::tile(t.elem, s);
  }

  type expand_dims() const {
    count(1);
    const type& t = tile(0);
    int axis = axis_of(t.rank() + 1);
    shape_t s = t.shape;
    s.insert(s.begin() + axis, 1);
    return type::tile(t.elem, s);
  }

  type broadcast_to() const {
    count(1);
    const type& t = tile(0);
    const shape_t& s = shape_attr("shape");
    bool ok = s.size() >= t.shape.size();
    for (std::size_t i = 0; ok && i < t.shape.size(); ++i) {
      std::int64_t from = t.shape[t.shape.size() - 1 - i], to = s[s.size() - 1 - i];
      ok = from == to || from == 1;
    }
    if (!ok) bad(error_kind::invalid_argument, "cannot broadcast ", shape_string(t.shape), " to ", shape_string(s));
    return type::tile(t.elem, s);
  }

  type reduction() const {
    count(1);
    const type& t = tile(0);
    if (t.rank() < 1) bad(error_kind::invalid_argument, "cannot reduce a scalar");
    int axis = axis_of(t.rank());
    bool keep = flag("keepdims");
    return type::tile(accumulation_dtype(o.kind, t.elem), reduced_shape(t.shape, axis, keep));
  }

  type cumulative() const {
    count(1);
    const type& t = tile(0);
    if (t.rank() < 1) bad(error_kind::invalid_argument, "cannot scan a scalar");
    axis_of(t.rank());
    flag("reverse");
    return type::tile(accumulation_dtype(o.kind, t.elem), t.shape);
  }

  void print() const {
    for (std::size_t i = 0; i < in.size(); ++i) tile(i);
    const std::string& f = string_attr("format");
    std::size_t holes = 0;
    for (std::size_t p = f.find("{}"); p != std::string::npos; p = f.find("{}", p + 2)) ++holes;
    if (holes != in.size())
      bad(error_kind::invalid_argument, "format has ", holes, " '{}' for ", in.size(), " operands");
  }
};

}  // namespace

std::vector<type> infer_results(const op& o, const std::vector<type>& in) {
  checker c{o, in};
  switch (o.kind) {
    case op_kind::constant: return {c.constant()};
    case op_kind::arange: {
      c.count(0);
      std::int64_t n = c.int_attr("n");
      if (n <= 0 || n > std::numeric_limits<std::int32_t>::max())
        c.bad(error_kind::invalid_argument, "n = ", n, " must be in 1..2^31-1");
      return {type::tile(dtype::i32, {n})};
    }
    case op_kind::block_id:
    case op_kind::num_blocks: {
      c.count(0);
      std::int64_t a = c.int_attr("axis");
      if (a < 0 || a > 2) c.bad(error_kind::invalid_argument, "axis ", a, " must be 0, 1 or 2");
      return {type::tile(dtype::i32)};
    }
    case op_kind::dim:
    case op_kind::num_tiles: {
      c.count(1);
      const type& a = c.array(0);
      std::int64_t axis = c.int_attr("axis");
      if (axis < 0 || axis >= a.rank()) c.bad(error_kind::invalid_argument, "axis ", axis, " is out of range for rank ", a.rank());
      if (o.kind == op_kind::dim) return {type::tile(dtype::i64)};
      std::int64_t tile = c.int_attr("tile");
      if (tile <= 0) c.bad(error_kind::invalid_argument, "tile = ", tile, " must be positive");
      return {type::tile(dtype::i32)};
    }
    case op_kind::load: return {c.load()};
    case op_kind::store: c.store(); return {};
    case op_kind::gather: {
      type t = c.scattered(0, true);
      c.padding(t.elem);
      return {t};
    }
    case op_kind::scatter: c.scattered(1, true); return {};
    case op_kind::atomic_add:
    case op_kind::atomic_max:
    case op_kind::atomic_min: return {c.scattered(1, false)};
    case op_kind::atomic_cas: return {c.scattered(2, false)};
#include "tegula/ir/elementwise_cases.inc"
      return {c.elementwise()};
    case op_kind::reshape: return {c.reshape()};
    case op_kind::permute: return {c.permute()};
    case op_kind::expand_dims: return {c.expand_dims()};
    case op_kind::broadcast_to: return {c.broadcast_to()};
    case op_kind::mma: return {c.mma()};
    case op_kind::reduce_sum: case op_kind::reduce_prod: case op_kind::reduce_max: case op_kind::reduce_min:
    case op_kind::argmax: case op_kind::argmin:
      return {c.reduction()};
    case op_kind::cumsum:
    case op_kind::cumprod: return {c.cumulative()};
    case op_kind::print: c.print(); return {};
    case op_kind::assert_: {
      c.count(1);
      const type& t = c.tile(0);
      if (t.elem != dtype::b1) c.bad(error_kind::type_error, "condition must be bool, got ", to_string(t));
      c.string_attr("message");
      return {};
    }
    case op_kind::reduce: case op_kind::scan: case op_kind::for_: case op_kind::if_: case op_kind::while_:
    case op_kind::yield:
      fail(error_kind::internal, "infer_results called for region op '", info(o.kind).text, "'");
  }
  fail(error_kind::internal, "infer_results: unknown op kind ", int(o.kind));
}

std::vector<std::int64_t> broadcast_shapes(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  std::size_t n = std::max(a.size(), b.size());
  std::vector<std::int64_t> r(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1)
      fail(error_kind::invalid_argument, "shapes ", shape_string(a), " and ", shape_string(b), " cannot be broadcast together");
    r[n - 1 - i] = x == 1 ? y : x;
  }
  return r;
}

dtype accumulation_dtype(op_kind k, dtype input) {
  switch (traits_of(k).result) {
    case result_dtype::accumulate:  // sum, prod, cumsum, cumprod
      if (is_bool(input) || is_signed_int(input)) return dtype::i64;
      if (is_unsigned_int(input)) return dtype::u64;
      return input;
    case result_dtype::index: return dtype::i32;  // argmax, argmin
    default: return input;
  }
}

std::optional<int> normalize_axis(std::int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return int(axis < 0 ? axis + rank : axis);
}

std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, int axis, bool keepdims) {
  std::vector<std::int64_t> s = shape;
  if (axis < 0 || std::size_t(axis) >= s.size()) return s;
  if (keepdims) s[std::size_t(axis)] = 1;
  else s.erase(s.begin() + axis);
  return s;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace tegula::ir
