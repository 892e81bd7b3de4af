// Tile access to array arguments in host memory: boxes (load/store) and per-element offsets
// (gather/scatter/atomics). Offsets count elements; element (i0, i1, ...) lies at
// data + sum i_d * strides[d] (strides in elements, any sign).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/interp/interpreter.hpp"
#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// What out-of-bounds (or masked) elements read as. For integers neg_inf/pos_inf are the dtype's
// minimum/maximum and nan is 0; for bool neg_inf is false and pos_inf true.
enum class padding_kind : std::uint8_t { zero, neg_inf, pos_inf, nan };
padding_kind padding_from_name(const std::string& name);  // "zero", "neg_inf", "pos_inf", "nan"

// The box of `shape` whose first element is at `start` (per axis), in the array's dtype;
// elements outside the array read as the padding.
tile_value load_box(const array_arg& a, const std::vector<std::int64_t>& start,
                    const std::vector<std::int64_t>& shape, padding_kind pad);
// Writes the in-bounds elements of the box at `start` (t converted to the array's dtype).
void store_box(const array_arg& a, const std::vector<std::int64_t>& start, const tile_value& t);

// offsets: one integer tile per array axis, all of one shape (the result's). mask: null, or a
// bool tile of that shape (or a scalar). value/compare: that shape or a scalar.
// gather: out-of-bounds or masked elements read as the padding.
tile_value gather(const array_arg& a, const std::vector<const tile_value*>& offsets, const tile_value* mask,
                  padding_kind pad);
// scatter and atomics: masked elements are skipped; an unmasked out-of-bounds offset fails
// (op_failure). Elements are applied one at a time in row-major order (the last write wins).
void scatter(const array_arg& a, const std::vector<const tile_value*>& offsets, const tile_value& value,
             const tile_value* mask);

enum class atomic_fn : std::uint8_t { add, max, min, cas };
// Returns the old values (masked elements: 0). max/min propagate NaN; cas stores value where the
// old element's bits equal compare's (converted to the array's dtype).
tile_value atomic_update(atomic_fn fn, const array_arg& a, const std::vector<const tile_value*>& offsets,
                         const tile_value* compare, const tile_value& value, const tile_value* mask);

}  // namespace tegula::interp
