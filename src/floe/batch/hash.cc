#include "floe/batch/hash.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "floe/batch/value.h"
#include "floe/util/xxhash64.h"

namespace floe {
namespace {

constexpr uint64_t kNullHash = 0x9e3779b97f4a7c15ULL;

uint64_t HashDouble(double v, uint64_t seed) {
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  if (v == 0.0) v = 0.0;
  return XxHash64Fixed8(std::bit_cast<uint64_t>(v), seed);
}

template <typename T>
void HashIntegers(const Array& array, std::vector<uint64_t>& hashes) {
  std::span<const T> values = array.Values<T>();
  for (size_t i = 0; i < values.size(); ++i) {
    hashes[i] = XxHash64Fixed8(static_cast<uint64_t>(values[i]), hashes[i]);
  }
}

void HashValues(const Array& array, std::vector<uint64_t>& hashes) {
  switch (array.kind()) {
    case TypeKind::kNull:
      break;
    case TypeKind::kBool:
      for (int64_t i = 0; i < array.length(); ++i) {
        hashes[i] = XxHash64Fixed8(array.GetBool(i) ? 1 : 0, hashes[i]);
      }
      break;
    case TypeKind::kInt8:
      HashIntegers<int8_t>(array, hashes);
      break;
    case TypeKind::kInt16:
      HashIntegers<int16_t>(array, hashes);
      break;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      HashIntegers<int32_t>(array, hashes);
      break;
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      HashIntegers<int64_t>(array, hashes);
      break;
    case TypeKind::kUInt8:
      HashIntegers<uint8_t>(array, hashes);
      break;
    case TypeKind::kUInt16:
      HashIntegers<uint16_t>(array, hashes);
      break;
    case TypeKind::kUInt32:
      HashIntegers<uint32_t>(array, hashes);
      break;
    case TypeKind::kUInt64:
      HashIntegers<uint64_t>(array, hashes);
      break;
    case TypeKind::kFloat16:
      for (int64_t i = 0; i < array.length(); ++i) {
        hashes[i] = HashDouble(HalfToFloat(array.Value<uint16_t>(i)), hashes[i]);
      }
      break;
    case TypeKind::kFloat32:
      for (int64_t i = 0; i < array.length(); ++i) {
        hashes[i] = HashDouble(array.Value<float>(i), hashes[i]);
      }
      break;
    case TypeKind::kFloat64:
      for (int64_t i = 0; i < array.length(); ++i) {
        hashes[i] = HashDouble(array.Value<double>(i), hashes[i]);
      }
      break;
    case TypeKind::kDecimal128:
      for (int64_t i = 0; i < array.length(); ++i) {
        __int128 v = array.GetDecimal(i);
        char bytes[sizeof(v)];
        std::memcpy(bytes, &v, sizeof(v));
        hashes[i] = XxHash64(std::string_view(bytes, sizeof(v)), hashes[i]);
      }
      break;
    case TypeKind::kBinary:
    case TypeKind::kString:
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
    case TypeKind::kFixedSizeBinary:
      for (int64_t i = 0; i < array.length(); ++i) {
        hashes[i] = XxHash64(array.GetView(i), hashes[i]);
      }
      break;
    case TypeKind::kList:
    case TypeKind::kStruct:
    case TypeKind::kMap: {
      std::string json;
      for (int64_t i = 0; i < array.length(); ++i) {
        json.clear();
        AppendJson(array, i, json);
        hashes[i] = XxHash64(json, hashes[i]);
      }
      break;
    }
  }
}

// Null slots hold arbitrary bytes, so their hash is derived from the seed alone.
void HashColumn(const Array& array, std::vector<uint64_t>& hashes) {
  if (array.null_count() == 0) {
    HashValues(array, hashes);
    return;
  }
  std::vector<uint64_t> seeds = hashes;
  HashValues(array, hashes);
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) hashes[i] = XxHash64Fixed8(kNullHash, seeds[i]);
  }
}

}  // namespace

Status HashRows(const RecordBatch& batch, std::span<const int> columns,
                std::vector<uint64_t>& hashes) {
  hashes.assign(static_cast<size_t>(batch.num_rows()), 0);
  for (int column : columns) {
    if (column < 0 || column >= batch.num_columns()) {
      return InvalidArgument("hashing rows: column {} is not in a batch of {} columns", column,
                             batch.num_columns());
    }
    HashColumn(batch.column(column), hashes);
  }
  return {};
}

}  // namespace floe
