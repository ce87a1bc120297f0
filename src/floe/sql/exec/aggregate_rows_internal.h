#pragma once

// How the rows of one input batch map onto the groups of a hash aggregate, and the loop every
// accumulator runs over them: a group id and a sign per row, with the common cases (one group,
// no retractions) as plain loops that the compiler specialises.

#include <cstdint>

namespace floe::sql::exec {

struct GroupRows {
  int64_t num_rows = 0;
  const uint32_t* groups = nullptr;  // per row; null: every row is in `group`
  uint32_t group = 0;
  const int8_t* signs = nullptr;  // per row +1 (add), -1 (retract) or 0 (skip); null: all add
};

// Calls f(row, group, sign) for every row that adds or retracts; stops when f returns false.
template <typename F>
void ForRows(const GroupRows& rows, F&& f) {
  int64_t n = rows.num_rows;
  if (rows.signs == nullptr) {
    if (rows.groups == nullptr) {
      uint32_t group = rows.group;
      for (int64_t r = 0; r < n; ++r) {
        if (!f(r, group, 1)) return;
      }
    } else {
      for (int64_t r = 0; r < n; ++r) {
        if (!f(r, rows.groups[r], 1)) return;
      }
    }
    return;
  }
  for (int64_t r = 0; r < n; ++r) {
    int sign = rows.signs[r];
    if (sign == 0) continue;
    if (!f(r, rows.groups ? rows.groups[r] : rows.group, sign)) return;
  }
}

}  // namespace floe::sql::exec
