#pragma once

// floe::sql has its own DataType and TypeKind (the types as written in SQL); inside the scalar
// binder those names mean the batch types, which is what every kernel works with.

#include "floe/batch/data_type.h"

namespace floe::sql::scalar {

using ::floe::DataType;
using ::floe::TypeKind;

}  // namespace floe::sql::scalar
