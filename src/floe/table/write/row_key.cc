#include "floe/table/write/row_key.h"

namespace floe::table {
namespace {

template <typename T>
void AppendFixed(const Array& a, std::vector<std::string>& keys) {
  for (int64_t i = 0; i < a.length(); ++i) {
    if (a.IsNull(i)) {
      keys[i].push_back('\0');
      continue;
    }
    keys[i].push_back('\1');
    const T v = a.Value<T>(i);
    keys[i].append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
}

void AppendColumn(const Array& a, std::vector<std::string>& keys) {
  switch (a.kind()) {
    case TypeKind::kBool:
      for (int64_t i = 0; i < a.length(); ++i) {
        keys[i].push_back(a.IsNull(i) ? '\0' : (a.GetBool(i) ? '\2' : '\1'));
      }
      return;
    case TypeKind::kInt8:
    case TypeKind::kUInt8:
      return AppendFixed<uint8_t>(a, keys);
    case TypeKind::kInt16:
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      return AppendFixed<uint16_t>(a, keys);
    case TypeKind::kInt32:
    case TypeKind::kUInt32:
    case TypeKind::kFloat32:
    case TypeKind::kDate32:
      return AppendFixed<uint32_t>(a, keys);
    case TypeKind::kInt64:
    case TypeKind::kUInt64:
    case TypeKind::kFloat64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      return AppendFixed<uint64_t>(a, keys);
    case TypeKind::kDecimal128:
      return AppendFixed<__int128>(a, keys);
    case TypeKind::kStruct:
      for (int64_t i = 0; i < a.length(); ++i) keys[i].push_back(a.IsNull(i) ? '\0' : '\1');
      for (int f = 0; f < a.num_children(); ++f) AppendColumn(a.field(f), keys);
      return;
    default:
      break;
  }
  // Binary-like and fixed-size binary: length-prefixed bytes. Lists and maps are not key types.
  for (int64_t i = 0; i < a.length(); ++i) {
    if (a.IsNull(i) || a.type()->is_nested()) {
      keys[i].push_back('\0');
      continue;
    }
    keys[i].push_back('\1');
    const std::string_view v = a.GetView(i);
    const auto size = static_cast<uint32_t>(v.size());
    keys[i].append(reinterpret_cast<const char*>(&size), sizeof(size));
    keys[i].append(v);
  }
}

}  // namespace

void AppendRowKeys(const RecordBatch& batch, const std::vector<int>& columns,
                   std::vector<std::string>& keys) {
  keys.resize(static_cast<size_t>(batch.num_rows()));
  for (int c : columns) AppendColumn(batch.column(c), keys);
}

}  // namespace floe::table
