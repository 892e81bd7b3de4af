// Loads and stores of tiles in the wgmma accumulator layout (layout.hpp). Each thread owns pairs
// of adjacent elements in 2*frag_mb rows: the row offsets are computed once, and each pair is one
// access at a constant column offset. A tile wholly inside the array takes an unguarded path with
// paired (vector) accesses; otherwise every element is bounds-checked.
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {

void emitter::emit_fragment_access(const ir::op& o, const array_info& a, ir::value_id v, bool store) {
  const tile_layout l = layout(v);
  const ir::dtype t = dtype_of(v);
  const int eb = ir::size_bytes(a.elem);
  const int rows_per_wg = 64 * l.frag_mb, n = l.frag_n, tile_rows = rows_per_wg * (lay_.threads / 128);
  // A pair is one 4-, 8- or 16-byte access when the array's rows are contiguous and aligned.
  const int w = (a.spec.last_dim_contiguous && a.spec.aligned_16 && eb >= 2) ? 2 * eb : 0;
  const char* word = w == 16 ? "uint4" : w == 8 ? "uint2" : "unsigned";
  const std::string pad = store ? "" : padding_expr(o, t);
  line(str("const int fr_ = (", tid_, " >> 7) * ", rows_per_wg, " + ((", tid_, " >> 5) & 3) * 16 + ((", tid_,
           " & 31) >> 2);"));
  line(str("const long long fc_ = b1_ + (", tid_, " & 3) * 2;"));
  const std::string ls = a.last_stride();
  auto rows = [&](bool guarded) {
    for (int mb = 0; mb < l.frag_mb; ++mb)
      for (int h = 0; h < 2; ++h) {
        open("");
        line(str("const long long r_ = b0_ + fr_ + ", mb * 64 + h * 8, ";"));
        const bool row_ok_var = guarded;
        if (row_ok_var) line(str("const bool ok_ = (unsigned long long)r_ < (unsigned long long)", a.shape(0), ";"));
        line(str("const long long o_ = r_ * ", a.stride(0), " + fc_ * ", ls, ";"));
        for (int n8 = 0; n8 < n / 8; ++n8) {
          const int s = mb * (n / 2) + n8 * 4 + h * 2;
          const std::string at0 = str(name(v), "[", s, "]"), at1 = str(name(v), "[", s + 1, "]");
          const std::string p0 = str(a.name, "[o_ + ", n8 * 8, " * ", ls, "]"), p1 = str(a.name, "[o_ + ", n8 * 8 + 1, " * ", ls, "]");
          if (!guarded && w) {
            const std::string ptr = str("reinterpret_cast<", store ? "" : "const ", word, "*>(", a.name, " + o_ + ", n8 * 8, ")");
            open("");
            line(str("union { ", word, " u; ", storage_type(a.elem), " e[2]; } w_;"));
            if (store) {
              line(str("w_.e[0] = ", to_storage(a.elem, at0), "; w_.e[1] = ", to_storage(a.elem, at1), ";"));
              line(str("*", ptr, " = w_.u;"));
            } else {
              line(str("w_.u = ", a.written ? "*" + ptr : "__ldg(" + ptr + ")", ";"));
              line(str(at0, " = ", from_storage(a.elem, "w_.e[0]"), "; ", at1, " = ", from_storage(a.elem, "w_.e[1]"), ";"));
            }
            close();
            continue;
          }
          for (int j = 0; j < 2; ++j) {
            const std::string& at = j ? at1 : at0;
            const std::string& p = j ? p1 : p0;
            const std::string ok = guarded ? str("ok_ && (unsigned long long)(fc_ + ", n8 * 8 + j, ") < (unsigned long long)", a.shape(1)) : "";
            if (store) line(str(guarded ? "if (" + ok + ") " : "", p, " = ", to_storage(a.elem, at), ";"));
            else line(str(at, " = ", guarded ? "(" + ok + ") ? " + from_storage(a.elem, p) + " : " + pad : from_storage(a.elem, p), ";"));
          }
        }
        close();
      }
  };
  open(str("if (b0_ >= 0 && b1_ >= 0 && b0_ + ", tile_rows, " <= ", a.shape(0), " && b1_ + ", n, " <= ", a.shape(1), ")"));
  rows(false);
  otherwise();
  rows(true);
  close();
}

}  // namespace tegula::codegen
