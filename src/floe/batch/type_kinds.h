#pragma once

// Groups of batch type kinds that several layers test for (aggregation, schema evolution).

#include "floe/batch/data_type.h"

namespace floe {

// The signed and unsigned integer kinds, every width.
constexpr bool IsIntegerKind(TypeKind kind) {
  switch (kind) {
    case TypeKind::kInt8:
    case TypeKind::kInt16:
    case TypeKind::kInt32:
    case TypeKind::kInt64:
    case TypeKind::kUInt8:
    case TypeKind::kUInt16:
    case TypeKind::kUInt32:
    case TypeKind::kUInt64:
      return true;
    default:
      return false;
  }
}

}  // namespace floe
