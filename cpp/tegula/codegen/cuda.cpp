// CUDA C++ code generation from post-pass tile IR: pure text, no CUDA calls (DESIGN.md rule 3).
#include "tegula/codegen/cuda.hpp"

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/codegen/matmul_plan.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// A C identifier for the kernel's extern "C" name (not truncated: the launcher looks it up).
std::string kernel_name(const std::string& n) {
  std::string s;
  for (char c : n) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    s += ok ? c : '_';
  }
  if (s.empty()) return "tegula_kernel";
  if (s[0] >= '0' && s[0] <= '9') s = "k_" + s;
  return s;
}

// The C type of a scalar kernel parameter (the ABI in cuda.hpp: bool as unsigned char, float16
// and bfloat16 as their 16-bit patterns).
std::string param_type(ir::dtype t) { return storage_type(t); }

}  // namespace

void emitter::signature(std::vector<std::string>& params, std::vector<std::string>& prologue) {
  for (const ir::param& p : f_.params) {
    const ir::type& t = type_of(p.value);
    if (t.is_array()) {
      const array_info& a = arrays_.at(p.value);
      params.push_back(a.written ? str(storage_type(a.elem), "* ", a.name)
                                 : str("const ", storage_type(a.elem), "* __restrict__ ", a.name));
      for (int d = 0; d < a.rank; ++d) params.push_back("long long " + a.shape(d));
      for (int d = 0; d < a.rank; ++d) params.push_back("long long " + a.stride(d));
      continue;
    }
    if (!t.is_scalar())
      fail(error_kind::invalid_argument, "cannot generate CUDA for kernel '", f_.name, "': parameter '", p.name,
           "' is a ", to_string(t), "; kernel parameters are arrays or scalars");
    params.push_back(str(param_type(t.elem), " ", name(p.value), "_arg"));
    prologue.push_back(str("const ", reg_type(t.elem), " ", name(p.value), " = ",
                           from_storage(t.elem, name(p.value) + "_arg"), ";"));
  }
}

int emitter::array_index(ir::value_id v) const {
  int i = 0;
  for (const ir::param& p : f_.params) {
    if (!type_of(p.value).is_array()) continue;
    if (p.value == v) return i;
    ++i;
  }
  fail(error_kind::internal, "codegen: value ", v, " is not an array parameter of '", f_.name, "'");
}

kernel_source emitter::generate() {
  std::vector<std::string> params, prologue;
  signature(params, prologue);
  emit_region(f_.body, [](const ir::op&) {});

  kernel_source k;
  k.name = kernel_name(f_.name);
  k.block_threads = lay_.threads;
  std::string s = preamble(needs_, opt_.arch);
  s += str("\n// '", f_.name, "': ", lay_.threads, " threads per block; a tile of N elements is held as groups of\n"
           "// V consecutive elements, group g = k*", lay_.threads, " + threadIdx.x in register slots k*V..k*V+V-1.\n");
  s += str("extern \"C\" __global__ void __launch_bounds__(", lay_.threads, ") ", k.name, "(");
  for (std::size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + params[i];
  s += ") {\n";
  if (smem_bytes_ > 0) {
    if (smem_bytes_ <= 48 * 1024) {
      s += str("  __shared__ __align__(16) unsigned char tg_smem[", smem_bytes_, "];\n");
    } else {
      s += "  extern __shared__ __align__(16) unsigned char tg_smem[];\n";
      k.dynamic_shared_bytes = int(smem_bytes_);
    }
  }
  for (const std::string& l : prologue) s += "  " + l + "\n";
  s += body_.str();
  s += "}\n";
  k.source = std::move(s);
  return k;
}

kernel_source generate(const ir::function& f, const options& o) {
  std::string why_not;
  if (o.cluster != 1 && o.cluster != 2)
    fail(error_kind::invalid_argument, "kernel '", f.name, "': cluster=", o.cluster, " is not 1 or 2 blocks");
  if (std::optional<matmul_plan> p = plan_matmul(f, o, why_not)) {
    emitter e(f, o, &*p);
    return e.generate_matmul(*p);
  }
  if (o.cluster != 1)
    fail(error_kind::invalid_argument, "kernel '", f.name, "': cluster=", o.cluster, " applies to tensor-core matrix "
         "products only, and this kernel ", why_not.empty() ? "has no mma loop" : "stays off the tensor cores: " + why_not);
  emitter e(f, o);
  kernel_source k = e.generate();
  k.note = why_not;
  return k;
}

}  // namespace tegula::codegen
