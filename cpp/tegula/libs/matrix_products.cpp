// Products over one matrix in memory as pending library nodes (see matrix_products.hpp).
#include "tegula/libs/matrix_products.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include "tegula/array/copy.hpp"
#include "tegula/array/library_node.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/libs/matmul_arrays.hpp"
#include "tegula/libs/matrix_pass.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using array::node;
using array::node_ptr;

// The matrix as the pass reads it (row-major, unit column stride) and whether that is m's transpose.
struct normalised {
  pass_matrix m;
  bool transposed = false;
};

bool normalise(const node& m, normalised& out, std::string* why) {
  auto no = [&](const char* w) {
    if (why) *why = w;
    return false;
  };
  if (m.kind != array::node_kind::leaf || m.shape.size() != 2) return no("the matrix is not a 2-D array in memory");
  if (m.t != ir::dtype::f32 && m.t != ir::dtype::f64) return no("the matrix is not float32 or float64");
  const std::int64_t r = m.shape[0], c = m.shape[1], sr = m.lay.strides[0], sc = m.lay.strides[1];
  out.m.t = m.t;
  out.m.address = array::element_address(m);
  if (sc == 1 && sr >= c) {
    out.m.rows = r, out.m.cols = c, out.m.ld = sr, out.transposed = false;
  } else if (sr == 1 && sc >= r) {
    out.m.rows = c, out.m.cols = r, out.m.ld = sc, out.transposed = true;
  } else {
    return no("the matrix has no unit stride along one axis");
  }
  if (!matrix_pass_fits(out.m)) return no("the matrix's start or row stride is not a multiple of 16 bytes");
  return true;
}

// A product as the pass computes it: y (M @ u) or z (v @ M) of the normalised matrix, with `count` vectors.
struct pass_side {
  bool y = false;
  int count = 1;
};

pass_side side_of(const node& n, bool transposed) {
  const int side = static_cast<int>(n.ivalue);  // 0: m @ x, 1: x @ m
  const node& x = *n.inputs[1];
  pass_side s;
  s.y = (side == 0) != transposed;
  s.count = x.shape.size() == 2 ? static_cast<int>(x.shape[0]) : 1;
  return s;
}

bool same_matrix(const normalised& a, const normalised& b) {
  return a.m.t == b.m.t && a.m.address == b.m.address && a.m.rows == b.m.rows && a.m.cols == b.m.cols &&
         a.m.ld == b.m.ld;
}

std::atomic<bool> lone_pass{true};

// x (materialised, C-contiguous) seen as `shape`.
node_ptr reshaped(const node_ptr& x, const array::dims& shape) {
  auto l = array::reshape_view(x->lay, shape);
  if (!l) fail(error_kind::internal, "matrix pass: a contiguous vector that does not reshape");
  return array::make_leaf(x->data, *l, x->t);
}

// A product computed alone by cuBLASLt (libs::gemm), as the member's result.
array::library_result by_gemm(const node& g) {
  const node_ptr& m = g.inputs[0];
  const node_ptr x = array::contiguous_leaf(g.inputs[1]);
  const std::int64_t rows = m->shape[0], cols = m->shape[1];
  node_ptr r;
  if (g.ivalue == 0) r = gemm(m, reshaped(x, {cols, 1}), {}, rows, 1, cols, m->t);
  else if (x->shape.size() == 1) r = gemm(reshaped(x, {1, rows}), m, {}, 1, cols, rows, m->t);
  else r = gemm(x, m, {}, x->shape[0], cols, rows, m->t);
  auto l = array::reshape_view(r->lay, g.shape);
  if (!l) {  // rows padded apart: a C-order copy of the result
    return {array::contiguous_leaf(r, true)->data, array::contiguous(g.shape)};
  }
  return {r->data, *l};
}

class matrix_product_op final : public array::library_op {
 public:
  std::string describe(const node& self) const override {
    // str(), not an ostream: numbers formatted through iostreams crash the GPU machine's build of the extension
    // (its static libstdc++'s facets mixed with the process's; tests/python/test_source_rules.py)
    const node& m = *self.inputs[0];
    return str("matrix pass: ", self.ivalue == 0 ? "M @ x" : "x @ M", " over a ", m.shape[0], " x ", m.shape[1], " ",
               ir::name(m.t), " matrix in memory");
  }

  bool joins(const std::vector<node_ptr>& group, const node& other) const override {
    normalised first, o;
    if (!normalise(*group.front()->inputs[0], first, nullptr) || !normalise(*other.inputs[0], o, nullptr)) return false;
    if (!same_matrix(first, o)) return false;
    int ny = 0, nz = 0;
    for (const auto& g : group) {
      normalised gm;
      normalise(*g->inputs[0], gm, nullptr);
      const pass_side s = side_of(*g, gm.transposed);
      (s.y ? ny : nz) += s.count;
    }
    const pass_side s = side_of(other, o.transposed);
    (s.y ? ny : nz) += s.count;
    return ny <= matrix_pass_max_y && nz <= matrix_pass_max_z;
  }

  std::vector<array::library_result> evaluate(const std::vector<node_ptr>& group) const override {
    if (group.size() == 1 && !lone_pass.load()) {
      const node& g = *group.front();
      matrix_pass_last() = {"cuBLASLt", g.t, g.ivalue == 0 ? 1 : 0, g.ivalue == 0 ? 0 : 1};
      return {by_gemm(*group.front())};
    }
    const node_ptr& m = group.front()->inputs[0];
    normalised nm;
    std::string why;
    if (!normalise(*m, nm, &why)) fail(error_kind::internal, "matrix pass: ", why);
    const std::size_t item = ir::size_bytes(m->t);
    // Each member's vectors, in memory and C-contiguous (a pending or strided x is computed or copied now).
    std::vector<node_ptr> xs;
    std::vector<pass_side> sides;
    pass_problem p;
    p.m = nm.m;
    for (const auto& g : group) {
      xs.push_back(array::contiguous_leaf(g->inputs[1]));
      normalised gm;
      normalise(*g->inputs[0], gm, nullptr);
      sides.push_back(side_of(*g, gm.transposed));
      (sides.back().y ? p.ny : p.nz) += sides.back().count;
    }
    // One buffer per side holding its vectors one after another (a lone vector is read where it is).
    auto gather = [&](bool y, std::int64_t length, int count) -> std::pair<std::uintptr_t, std::shared_ptr<array::storage>> {
      if (count == 0) return {0, nullptr};
      int members = 0;
      std::size_t last = 0;
      for (std::size_t i = 0; i < group.size(); ++i)
        if (sides[i].y == y) ++members, last = i;
      const std::uintptr_t lone = array::element_address(*xs[last]);
      if (members == 1 && lone % 16 == 0) return {lone, nullptr};
      auto buf = array::allocate_like(*m, static_cast<std::size_t>(count * length) * item);
      std::int64_t at = 0;
      for (std::size_t i = 0; i < group.size(); ++i) {
        if (sides[i].y != y) continue;
        const node& x = *xs[i];
        array::layout dst = array::contiguous(x.shape);
        dst.offset = at;
        array::copy_strided(x.data, x.lay, x.t, buf, dst, x.t);
        at += x.size();
      }
      return {buf->address(), buf};
    };
    auto [u, u_buf] = gather(true, nm.m.cols, p.ny);
    auto [v, v_buf] = gather(false, nm.m.rows, p.nz);
    p.u = u, p.v = v;
    std::vector<array::library_result> out;
    int at_y = 0, at_z = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
      const node& g = *group[i];
      auto data = array::allocate_like(g, static_cast<std::size_t>(g.size()) * item);
      pass_output o{data->address(), sides[i].y ? at_y : at_z, sides[i].count};
      (sides[i].y ? p.y : p.z).push_back(o);
      (sides[i].y ? at_y : at_z) += sides[i].count;
      out.push_back({std::move(data), array::contiguous(g.shape)});
    }
    if (m->device == array::device_kind::cpu) {
      matrix_pass_host(p);
    } else {
      matrix_pass(*m->gpu, array::array_stream(*m->gpu), p);
    }
    return out;  // u_buf and v_buf go after the launches (stream-ordered frees)
  }
};

const std::shared_ptr<const matrix_product_op>& the_op() {
  static const auto op = std::make_shared<const matrix_product_op>();
  return op;
}

}  // namespace

bool set_lone_matrix_pass(bool on) { return lone_pass.exchange(on); }

bool matrix_product_applies(const node_ptr& m, std::string* why) {
  normalised nm;
  return normalise(*m, nm, why);
}

node_ptr matrix_product(const node_ptr& m, const node_ptr& x, int side) {
  std::string why;
  normalised nm;
  if (!normalise(*m, nm, &why)) fail(error_kind::invalid_argument, "matrix_product: ", why);
  if (side != 0 && side != 1) fail(error_kind::invalid_argument, "matrix_product: side must be 0 (M @ x) or 1 (x @ M)");
  if (x->t != m->t)
    fail(error_kind::type_error, "matrix_product: x is ", ir::name(x->t), ", the matrix ", ir::name(m->t));
  const std::int64_t rows = m->shape[0], cols = m->shape[1];
  const std::int64_t need = side == 0 ? cols : rows;
  array::dims shape;
  if (x->shape.size() == 1) {
    if (x->shape[0] != need)
      fail(error_kind::invalid_argument, "matrix_product: a vector of ", x->shape[0], " elements for ", need);
    shape = {side == 0 ? rows : cols};
  } else if (x->shape.size() == 2 && side == 1 && !nm.transposed) {
    if (x->shape[1] != need || x->shape[0] < 1 || x->shape[0] > matrix_pass_max_z)
      fail(error_kind::invalid_argument, "matrix_product: a (", x->shape[0], ", ", x->shape[1], ") operand for (k <= ",
           matrix_pass_max_z, ", ", need, ")");
    shape = {x->shape[0], cols};
  } else {
    fail(error_kind::invalid_argument, "matrix_product: x must be a vector (or, for x @ M over a matrix with unit "
         "column stride, up to ", matrix_pass_max_z, " rows)");
  }
  node_ptr n = array::make_library_node(the_op(), {m, x}, m->t, std::move(shape));
  n->ivalue = side;
  return n;
}

}  // namespace tegula::libs
