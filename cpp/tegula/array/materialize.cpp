// Materialisation and assignment (see materialize.hpp).
#include "tegula/array/materialize.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "tegula/array/copy.hpp"
#include "tegula/array/emit.hpp"
#include "tegula/array/kernels.hpp"
#include "tegula/array/library_node.hpp"
#include "tegula/array/pending_view.hpp"
#include "tegula/array/plan.hpp"
#include "tegula/array/vm.hpp"
#include "tegula/array/vm_audit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

// Sibling outputs one kernel may store besides its root (expr.hpp: sibling_outputs).
constexpr std::size_t max_sibling_outputs = 3;
// Library nodes one call may compute (library_node.hpp: library_group; the op's joins() bounds it further).
constexpr std::size_t max_library_group = 10;

// View w as plan p's kernel reads it: 2-D, 3-D when batched, transposed to (cols, rows) for col_loop (contiguous
// when its rows are: a complex part's rows are not).
kernel_array as_arg(const view2d& w, const plan& p) {
  if (p.shape == kernel_shape::col_loop) {
    const bool contiguous = w.rows == 1 || w.row_stride == 1;
    return kernel_array{w.address, w.t, 2, {w.cols, w.rows, 0}, {w.col_stride, w.row_stride, 0}, contiguous,
                        contiguous && w.aligned};
  }
  const bool batched = p.batched;
  if (batched)
    return kernel_array{w.address, w.t, 3, {w.batches, w.rows, w.cols}, {w.batch_stride, w.row_stride, w.col_stride},
                        w.contiguous, w.aligned};
  return kernel_array{w.address, w.t, 2, {w.rows, w.cols, 0}, {w.row_stride, w.col_stride, 0}, w.contiguous, w.aligned};
}

void view_becomes_leaf(node& v, const node& base);

void become_leaf(node& n, std::shared_ptr<storage> data, layout lay) {
  n.kind = node_kind::leaf;
  n.inputs.clear();
  n.axes.clear();
  n.view_base.reset();
  n.view_items.clear();
  n.view_reshape = false;
  n.data = std::move(data);
  n.lay = std::move(lay);
  for (auto& c : n.consumers)  // they read the new storage now
    if (!c.expired()) n.data->readers.push_back(std::move(c));
  n.consumers.clear();
  // Its pending views (pending_view.hpp) are views of its memory from now on, as NumPy's are.
  auto views = std::move(n.views);
  n.views.clear();
  for (auto& w : views)
    if (auto v = w.lock(); v && v->pending() && v->view_base.get() == &n) view_becomes_leaf(*v, n);
}

// Makes pending view v (pending_view.hpp) a leaf once its base is in memory: the base's memory through v's index,
// or reshaped to v's shape (a C-order copy where the base's layout does not reshape as a view, as NumPy's reshape
// copies there).
void view_becomes_leaf(node& v, const node& base) {
  if (!v.view_reshape) {
    become_leaf(v, base.data, subscript(base.lay, v.view_items));
    return;
  }
  if (auto l = reshape_view(base.lay, v.shape)) {
    become_leaf(v, base.data, std::move(*l));
    return;
  }
  auto s = allocate_like(base, static_cast<std::size_t>(base.size()) * size_bytes(base.t));
  const layout c = contiguous(base.shape);
  copy_strided(base.data, base.lay, base.t, s, c, base.t);
  become_leaf(v, std::move(s), *reshape_view(c, v.shape));
}


// Plans are reused per recursion depth (their vectors keep their capacity): a repeated small
// operation then plans with no allocation.
struct plan_slot {
  plan p;
  std::vector<kernel_arg> args;
};
struct depth_guard {
  static thread_local std::vector<std::unique_ptr<plan_slot>> slots;
  static thread_local std::size_t depth;
  plan_slot* slot;
  depth_guard() {
    if (slots.size() <= depth) slots.push_back(std::make_unique<plan_slot>());
    slot = slots[depth++].get();
  }
  ~depth_guard() {
    --depth;
    slot->p.order.clear();  // drop node references now, not at the next plan
  }
};
thread_local std::vector<std::unique_ptr<plan_slot>> depth_guard::slots;
thread_local std::size_t depth_guard::depth = 0;

// Results with no elements, and reductions over no elements (the identity: sum 0, prod 1).
bool evaluate_empty(const node_ptr& root, const std::shared_ptr<storage>& given_out) {
  bool reduce_of_empty = root->kind == node_kind::reduce && root->inputs[0]->size() == 0;
  if (root->size() != 0 && !reduce_of_empty) return false;
  std::size_t bytes = static_cast<std::size_t>(root->size()) * size_bytes(root->t);
  std::shared_ptr<storage> out = given_out ? given_out : allocate_like(*root, bytes);
  if (reduce_of_empty) {
    const int one = root->op == ir::op_kind::reduce_prod ? 1 : 0;
    assign(out, contiguous(root->shape), root->t, make_scalar_int(one, root->t, root));  // cast on the way in
  }
  become_leaf(*root, out, contiguous(root->shape));
  return true;
}

// What run_first did with a plan.
enum class first_run { ran, not_run, replan };

// How deep this thread is in the parts of a graph too large for one VM program (run_first's cut). A part runs on
// the VM without looking for or starting its own fused kernel: the whole graph's kernel is the one compiling in the
// background and the one later calls run; the parts' kernels would be compiles (and translations on this thread)
// that nothing uses.
thread_local int cutting_depth = 0;
struct cutting_scope {
  cutting_scope() { ++cutting_depth; }
  ~cutting_scope() { --cutting_depth; }
  cutting_scope(const cutting_scope&) = delete;
  cutting_scope& operator=(const cutting_scope&) = delete;
};

// On the GPU, a plan whose fused kernel is not compiled yet runs on the array VM (vm.hpp) while the kernel compiles
// in the background; a kernel already built or in the disk cache runs as usual. A plan the VM cannot run because
// reductions sit inside its expression (softmax's max and sum, a 0-d expression of full reductions) has those
// reductions materialised first (each on the VM) and is planned again (replan), and so does one too large for a VM
// program (its largest part materialised first, vm::part_to_cut); any other waits for its compile.
// `cut` is set when a part was cut off: the caller's later attempts for the same root (the rest of the graph, planned
// again) run in the parts' scope too, so the rest starts no compile of its own either.
first_run run_first(const plan& p, const node& root, const std::vector<kernel_arg>& args, bool& cut) {
  vm::last_run& last = vm::last();
  last = {};
  if (root.device != device_kind::cuda) {
    if (vm::audit_on()) vm::audit_plan(p.key, p);  // what a GPU first run would do (vm_audit.hpp)
    return first_run::not_run;
  }
  const vm::mode mode = vm::current_mode();
  if (mode == vm::mode::never) return first_run::not_run;
  // full_key's thread-local string, not a copy (this runs for every GPU evaluation): it is read below only before
  // anything can plan again on this thread (the replan path's materialisations come after its last use).
  const std::string& full = full_key(p.key, args);
  if (mode == vm::mode::first && cutting_depth == 0) {
    if (const array_kernel* k = ready_kernel(full, root.gpu, [&] { return emit_kernel(p); }, args)) {
      run_kernel(*k, root.device, root.gpu, args, p.grid);
      return first_run::ran;
    }
  }
  std::string why;
  if (!vm::available(*root.gpu, &why)) {
    last.note = "waited for its fused kernel's compile: " + why;
    return first_run::not_run;
  }
  const std::vector<node_ptr> inner = vm::inner_reductions(p);
  if (!inner.empty()) {
    for (const auto& n : inner) materialize(n);
    return first_run::replan;
  }
  if (const codegen::vm::program* prog = vm::program_for(full, p, &why)) {
    ++stats().launches;
    ++stats().vm_launches;
    vm::run(p, *prog, *root.gpu);
    last.on_vm = true;
    last.note = mode == vm::mode::always ? "the array VM (TEGULA_ARRAY_VM=always)"
                                         : "the array VM while its fused kernel compiles in the background";
    return first_run::ran;
  }
  if (codegen::vm::size_refusal(why)) {
    // Every op has a VM form but the whole is too large for one program (stockham_fft's 4-term complex
    // butterfly, 45 nodes): its largest part first, on the VM (cut again while too large), then the rest.
    if (node_ptr part = vm::part_to_cut(p)) {
      cutting_scope parts;
      cut = true;
      materialize(part);
      return first_run::replan;
    }
  }
  last.note = "waited for its fused kernel's compile: the array VM does not run it (" + why + ")";
  return first_run::not_run;  // get_kernel waits for the background compile (mode first) or compiles now
}

// A library node and those one call computes with it (library_node.hpp), each made a leaf of its result; with
// `given_out`, root's result is copied there. Into an output view (assign's direct path) it declines: the general
// path materialises it and copies it in.
bool evaluate_library(const node_ptr& root, const std::shared_ptr<storage>& given_out, const layout* out_view) {
  if (out_view) return false;
  const std::vector<node_ptr> group = library_group(root, max_library_group);
  std::vector<library_result> results = root->library->evaluate(group);
  if (results.size() != group.size()) fail(error_kind::internal, "a library call returned ", results.size(),
                                           " results for ", group.size(), " nodes");
  library_last() = {root->library->describe(*root), group.size()};
  for (std::size_t i = 0; i < group.size(); ++i)
    if (group[i]->pending()) become_leaf(*group[i], std::move(results[i].data), std::move(results[i].lay));
  if (given_out) {
    const layout c = contiguous(root->shape);
    copy_strided(root->data, root->lay, root->t, given_out, c, root->t);
    become_leaf(*root, given_out, c);
  }
  return true;
}

// A deferred in-place update (deferred_update.hpp): its value written into its home, through assign (one kernel
// straight into the memory where the graph allows), and the node a leaf over that memory. Its home is taken first,
// so nothing computes the update twice.
bool evaluate_update(const node_ptr& root) {
  const std::shared_ptr<const update_target> home = root->home.take();
  assign(home->data, home->lay, root->t, root, true);
  if (root->pending() || root->data != home->data) become_leaf(*root, home->data, home->lay);
  return true;
}

// Makes pending `root` a leaf: its graph evaluated into `given_out` when set (a contiguous view
// start) or into fresh contiguous storage (a scan: in the space's axis order). With `out_view`, the result is
// written through that view of `given_out` (assign's direct path); returns false, having done nothing, when
// the view does not fit the kernel's 2-D space.
bool evaluate(const node_ptr& root, const std::shared_ptr<storage>& given_out, const layout* out_view = nullptr) {
  if (out_view && (root->size() == 0 || (root->kind == node_kind::reduce && root->inputs[0]->size() == 0)))
    return false;  // the general path writes empty results and identities
  if (root->home) {
    if (given_out || out_view)  // callers evaluate a copy of a node into memory of theirs (detached_copy)
      fail(error_kind::internal, "a deferred update evaluated into memory other than its own");
    return evaluate_update(root);
  }
  if (root->kind == node_kind::library) return evaluate_library(root, given_out, out_view);
  if (!out_view && evaluate_empty(root, given_out)) return true;
  int sms = root->device == device_kind::cuda ? root->gpu->sm_count() : cpu_sm_count;
  substitutes subst;
  depth_guard guard;
  const std::uintptr_t out_address =
      !given_out ? 0
                 : given_out->address() +
                       static_cast<std::uintptr_t>((out_view ? out_view->offset : 0) * size_bytes(root->t));
  // Held pending nodes that read the same inputs are computed by this kernel too (one pass over the inputs).
  std::vector<node_ptr> siblings;
  if (!given_out && !out_view) siblings = sibling_outputs(root, max_sibling_outputs);
  for (const auto& s : siblings) {
    if (!graph_contains(s, root.get())) continue;
    // A sibling that reads root (put = call - S + ...) is the kernel's root instead: materialising it computes
    // root as its sibling. (The search goes up the graph, so it ends.)
    node_ptr top = s;
    siblings.clear();
    evaluate(top, nullptr);
    if (!root->pending()) return true;
    break;
  }
  bool cut = false;                   // run_first cut off a part: the rest of the graph is a part too
  std::optional<cutting_scope> rest;  // (its kernel would never run again: the whole graph's is compiling)
  for (int attempt = 0;; ++attempt) {
    if (attempt > 64) fail(error_kind::internal, "array planning did not converge");
    if (cut && !rest) rest.emplace();
    plan_blocker blocker;
    plan& p = guard.slot->p;
    phase_timer planning(stats().plan_ns);
    const bool planned = make_plan(p, blocker, root, out_address, sms, subst, out_view,
                                   siblings.empty() ? nullptr : &siblings);
    planning.stop();
    if (!planned) {
      if (blocker.out_unfit) return false;
      if (blocker.materialize_first) {
        materialize(blocker.materialize_first);
      } else {
        // A leaf the 2-D kernel cannot read: copy it into a layout it can (plan.cpp: dense in the space's order
        // over the axes it varies along, stride 0 along those it is broadcast over).
        node_ptr leaf = blocker.copy_leaf;
        const layout& target = blocker.space_layout;
        layout dst = target;  // the axes it is broadcast over at extent 1 (copied once)
        std::int64_t n = 1;
        for (std::size_t a = 0; a < dst.shape.size(); ++a) {
          if (dst.strides[a] == 0) dst.shape[a] = 1;
          n *= dst.shape[a];
        }
        auto data = allocate_like(*leaf, static_cast<std::size_t>(n) * size_bytes(leaf->t));
        dst.offset = -dst.extent().first;
        layout src = broadcast_to(leaf->lay, target.shape);
        src.shape = dst.shape;  // its first element along the axes of stride 0 (the same value all along)
        copy_strided(leaf->data, src, leaf->t, data, dst, leaf->t);
        layout seen = target;  // what the kernel reads: broadcast again
        seen.offset = dst.offset;
        node_ptr copy = make_leaf(data, seen, leaf->t);
        subst[blocker.copy_key] = copy;
      }
      continue;
    }
    const bool partials = stores_partials(p);
    std::shared_ptr<storage> out = partials ? nullptr : given_out;
    std::size_t out_bytes = static_cast<std::size_t>(p.out.batches * p.out.rows * p.out.cols) * size_bytes(p.out_t);
    if (partials || !out) out = allocate_like(*root, out_bytes);
    p.out.address = out == given_out ? out_address : out->address();
    std::vector<kernel_arg>& args = guard.slot->args;
    args.clear();
    for (const auto& w : p.leaves) args.push_back(as_arg(w, p));
    for (std::size_t i = 0; i < p.scalars.size(); ++i) args.push_back(scalar_parameter(p, i));
    args.push_back(kernel_scalar{dtype::i64, 0, p.ncols});
    if (p.shape == kernel_shape::split || p.shape == kernel_shape::col_loop)
      args.push_back(kernel_scalar{dtype::i32, 0, p.parts});
    if (ir::is_complex(p.out_t)) {
      auto [re, im] = complex_parts(p.out);
      args.push_back(as_arg(re, p));
      args.push_back(as_arg(im, p));
    } else {
      args.push_back(as_arg(p.out, p));
    }
    std::vector<std::shared_ptr<storage>> sibling_data;
    for (std::size_t i = 0; i < siblings.size(); ++i) {
      view2d& w = p.sibling_out[i];
      sibling_data.push_back(allocate_like(*siblings[i], static_cast<std::size_t>(siblings[i]->size()) * size_bytes(w.t)));
      w.address = sibling_data.back()->address();
      if (ir::is_complex(w.t)) {
        auto [re, im] = complex_parts(w);
        args.push_back(as_arg(re, p));
        args.push_back(as_arg(im, p));
      } else {
        args.push_back(as_arg(w, p));
      }
    }
    const first_run first = run_first(p, *root, args, cut);
    if (first == first_run::replan) {
      if (!root->pending()) return true;  // computed along with an inner reduction (a sibling)
      continue;
    }
    if (first == first_run::not_run) {
      const array_kernel& k = get_kernel(p.key, root->device, root->gpu, [&] { return emit_kernel(p); }, args);
      run_kernel(k, root->device, root->gpu, args, p.grid);  // empty results never get here (evaluate_empty)
    }
    if (partials) {
      // Second stage: reduce the partials (R, parts) along their columns, into the result (col_loop's are the
      // memory of a (parts, R) array).
      node_ptr partial = make_leaf(out, p.shape == kernel_shape::split ? contiguous({p.R, p.parts})
                                                                       : layout{{p.R, p.parts}, {1, p.R}, 0},
                                   p.out_t);
      node_ptr stage2 = make_cast(make_reduce(root->op, partial, {1}, false, false), root->t);
      if (out_view) {  // the second stage writes through the view, seen as its R rows
        auto rows = reshape_view(*out_view, {p.R});
        if (!rows || !evaluate(stage2, given_out, &*rows)) fail(error_kind::internal, "split reduction output view");
        become_leaf(*root, given_out, *out_view);
        return true;
      }
      evaluate(stage2, given_out);
      become_leaf(*root, stage2->data, contiguous(root->shape));
      return true;
    }
    become_leaf(*root, out, std::move(p.out_layout));  // p is scratch: its layout is set anew by each plan
    for (std::size_t i = 0; i < siblings.size(); ++i)
      if (siblings[i]->pending()) become_leaf(*siblings[i], sibling_data[i], contiguous(siblings[i]->shape));
    return true;
  }
}

// True when leaf n is view `l` (of dtype t) of storage s itself.
bool is_view_of(const node& n, const storage& s, const layout& l, dtype t) {
  return n.kind == node_kind::leaf && n.data.get() == &s && n.t == t && n.lay.offset == l.offset &&
         n.lay.strides == l.strides && n.shape == l.shape;
}

// How src's graph reads what view `l` of storage `s` holds: 0 not at all (other storage, or views of `s` whose
// bytes lie apart from `l`'s: the write changes nothing it reads), 1 only through `l` itself (each element read
// where it is written: race-free when evaluated straight into it), 2 through another view that shares bytes
// with `l` (a stencil reading its neighbours: the value must be computed before any of it is written).
int reads_of(const node_ptr& n, const storage& s, const layout& l, dtype t) {
  if (n->kind == node_kind::leaf) {
    if (n->data.get() != &s) return 0;
    if (is_view_of(*n, s, l, t)) return 1;
    const byte_range r = byte_extent(n->lay, size_bytes(n->t)), d = byte_extent(l, size_bytes(t));
    return r.lo < d.hi && d.lo < r.hi ? 2 : 0;
  }
  if (!n->pending()) return 0;
  int worst = 0;
  for (const auto& in : n->inputs) worst = std::max(worst, reads_of(in, s, l, t));
  return worst;
}

}  // namespace

std::shared_ptr<storage> allocate_like(const node& like, std::size_t bytes) {
  if (like.device == device_kind::cpu) return storage::allocate_cpu(bytes);
  return storage::allocate_cuda(bytes, *like.gpu);
}

node_ptr contiguous_leaf(const node_ptr& x, bool always_copy) {
  materialize(x);
  const node& n = *x;
  if (n.lay.c_contiguous() && !always_copy) return x;
  auto s = allocate_like(n, static_cast<std::size_t>(n.size()) * size_bytes(n.t));
  layout c = contiguous(n.shape);
  copy_strided(n.data, n.lay, n.t, s, c, n.t);
  return make_leaf(s, c, n.t);
}

void materialize(const node_ptr& n) {
  if (n->kind == node_kind::scalar) {  // a 0-d array holding the value (a cast kernel writes it)
    auto cast = std::make_shared<node>(*n);
    cast->kind = node_kind::cast;
    cast->compute = n->t;
    cast->inputs = {std::make_shared<node>(*n)};
    evaluate(cast, nullptr);
    become_leaf(*n, cast->data, cast->lay);
    return;
  }
  if (!n->pending()) return;
  if (n->view_base) {  // a view of a pending node: that node's memory, viewed (become_leaf makes it the view)
    node_ptr base = n->view_base;
    materialize(base);
    if (n->pending()) view_becomes_leaf(*n, *base);
    return;
  }
  evaluate(n, nullptr);
}

std::int64_t int64_value(const node_ptr& n) {
  node_ptr v = make_cast(n, dtype::i64);
  if (v->kind == node_kind::scalar) return v->ivalue;
  materialize(v);
  std::int64_t out = 0;
  const std::size_t offset = static_cast<std::size_t>(v->lay.offset) * sizeof out;
  if (v->device == device_kind::cpu) std::memcpy(&out, static_cast<const char*>(v->data->host()) + offset, sizeof out);
  else v->data->buffer()->copy_to_host(&out, sizeof out, offset, array_stream(*v->gpu));
  return out;
}

void assign(const std::shared_ptr<storage>& dst, const layout& dst_layout, dtype dst_t, const node_ptr& src,
            bool src_is_temporary) {
  if (src->device != dst->kind() || (dst->kind() == device_kind::cuda && src->gpu != dst->dev()))
    fail(error_kind::invalid_argument, "cannot assign an array of another device; move it with .to_device() first");
  if (!broadcasts_to(src->shape, dst_layout.shape))  // NumPy's message for assignments
    fail(error_kind::invalid_argument, "could not broadcast input array from shape ", shape_text(src->shape),
         " into shape ", shape_text(dst_layout.shape));
  // x[k] = x[k]: Python writes back the value of `x[k] op= y` (already in place), or a program copies a view
  // onto itself. Nothing changes.
  if (is_view_of(*src, *dst, dst_layout, dst_t)) return;
  // The direct path evaluates src's graph straight into dst's view: one kernel, no temporary, no copy. It needs
  // a graph of dst's shape (not a scan) that reads dst's elements, if at all, only each where it is written (1
  // below). A src that others may still read (not a temporary) and that reads dst's elements keeps its old value
  // by being materialised first (flush_readers below); one that does not (0) is evaluated as a fresh node, so it
  // stays pending for them, still right.
  const bool evaluable = src->pending() && src->shape == dst_layout.shape && src->kind != node_kind::scan;
  const int reads = evaluable ? reads_of(src, *dst, dst_layout, dst_t) : 2;
  const bool direct = evaluable && reads < 2 && (src_is_temporary || reads == 0);
  // Expressions that read dst see its old values: materialise them now (src itself stays pending when direct).
  flush_readers(*dst, direct ? src.get() : nullptr, byte_extent(dst_layout, size_bytes(dst_t)));
  if (dst_layout.size() == 0) return;
  if (direct) {
    node_ptr root = src;
    if (!src_is_temporary) {
      root = detached_copy(*src);  // evaluated into dst, it becomes a view of dst; src stays as it is
    }
    root = make_cast(root, dst_t);
    if (evaluate(root, dst, &dst_layout)) return;
  }
  if (src->kind == node_kind::scalar) {  // a fill (u[0, :] = 0): the value broadcast over the view by one kernel
    auto fill = std::make_shared<node>();
    fill->kind = node_kind::cast;
    fill->t = fill->compute = dst_t;
    fill->shape = dst_layout.shape;
    fill->device = src->device;
    fill->gpu = src->gpu;
    fill->inputs = {make_cast(src, dst_t)};
    if (evaluate(fill, dst, &dst_layout)) return;
  }
  // General path: the value in memory (a private copy of a pending or scalar node is materialised,
  // so the caller's node is untouched), then a strided copy into the view. Casts to or from complex
  // run in the engine first (the copy kernel moves float parts).
  node_ptr v = src;
  if (src->t != dst_t && (ir::is_complex(src->t) || ir::is_complex(dst_t))) {
    v = make_cast(src, dst_t);  // a fresh node: materialising it leaves src untouched
    materialize(v);
  } else if (v->kind != node_kind::leaf) {
    // the copy has no consumers or views (src keeps its own); a view of a pending node stays one (materialising
    // it materialises that node and reads its memory)
    v = detached_copy(*src);
    v->view_base = src->view_base;
    v->view_items = src->view_items;
    v->view_reshape = src->view_reshape;
    materialize(v);
  }
  copy_strided(v->data, broadcast_to(v->lay, dst_layout.shape), v->t, dst, dst_layout, dst_t);
}

}  // namespace tegula::array
