#include "floe/sql/exec/cell.h"

#include <cmath>
#include <compare>
#include <cstring>
#include <type_traits>

#include "floe/batch/value.h"

namespace floe::sql::exec {
namespace {

// Calls f(T{}) with the C type of a fixed-width kind; false for other kinds. Float16 is its bits.
template <typename F>
bool VisitFixed(TypeKind kind, F&& f) {
  switch (kind) {
    case TypeKind::kInt8:
      f(int8_t{});
      return true;
    case TypeKind::kInt16:
      f(int16_t{});
      return true;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      f(int32_t{});
      return true;
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      f(int64_t{});
      return true;
    case TypeKind::kUInt8:
      f(uint8_t{});
      return true;
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      f(uint16_t{});
      return true;
    case TypeKind::kUInt32:
      f(uint32_t{});
      return true;
    case TypeKind::kUInt64:
      f(uint64_t{});
      return true;
    case TypeKind::kFloat32:
      f(float{});
      return true;
    case TypeKind::kFloat64:
      f(double{});
      return true;
    case TypeKind::kDecimal128:
      f(__int128{});
      return true;
    default:
      return false;
  }
}

bool IsBinaryKind(TypeKind kind) {
  return kind == TypeKind::kBinary || kind == TypeKind::kString || kind == TypeKind::kLargeBinary ||
         kind == TypeKind::kLargeString || kind == TypeKind::kFixedSizeBinary;
}

template <typename T>
T Canonical(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(value)) return std::numeric_limits<T>::quiet_NaN();
    if (value == 0) return T{0};
  }
  return value;
}

template <typename T>
int CompareValues(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool a_nan = std::isnan(a);
    bool b_nan = std::isnan(b);
    if (a_nan || b_nan) return static_cast<int>(a_nan) - static_cast<int>(b_nan);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename T>
int CompareFixed(TypeKind kind, T a, T b) {
  if constexpr (std::is_same_v<T, uint16_t>) {
    if (kind == TypeKind::kFloat16) return CompareValues(HalfToFloat(a), HalfToFloat(b));
  }
  return CompareValues(a, b);
}

int CompareBytes(std::string_view a, std::string_view b) {
  int c = a.compare(b);  // char_traits<char> compares as unsigned char
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

template <typename T>
void Put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
bool Get(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

// The payload of one non-null encoded cell, after the null marker.
bool SplitPayload(const DataType& type, std::string_view& in, std::string_view& payload) {
  size_t size = 0;
  if (IsBinaryKind(type.kind()) || type.is_nested()) {
    uint32_t length = 0;
    if (!Get(in, length)) return false;
    size = length;
  } else if (type.kind() == TypeKind::kBool) {
    size = 1;
  } else {
    size = static_cast<size_t>(type.byte_width());
  }
  if (in.size() < size) return false;
  payload = in.substr(0, size);
  in.remove_prefix(size);
  return true;
}

}  // namespace

bool IsOrderable(const DataType& type) {
  return type.kind() == TypeKind::kBool || type.kind() == TypeKind::kNull ||
         IsBinaryKind(type.kind()) || VisitFixed(type.kind(), [](auto) {});
}

bool IsDecodable(const DataType& type) { return IsOrderable(type); }

void EncodeCell(const Array& array, int64_t row, std::string& out) {
  if (array.IsNull(row)) {
    out.push_back('\0');
    return;
  }
  out.push_back('\1');
  TypeKind kind = array.kind();
  if (kind == TypeKind::kBool) {
    out.push_back(array.GetBool(row) ? '\1' : '\0');
    return;
  }
  if (IsBinaryKind(kind)) {
    std::string_view bytes = array.GetView(row);
    Put(out, static_cast<uint32_t>(bytes.size()));
    out.append(bytes);
    return;
  }
  if (VisitFixed(kind, [&]<typename T>(T) { Put(out, Canonical(array.Value<T>(row))); })) return;
  std::string json;
  AppendJson(array, row, json);
  Put(out, static_cast<uint32_t>(json.size()));
  out.append(json);
}

Status DecodeCell(const DataType& type, std::string_view& in, ArrayBuilder& builder) {
  if (in.empty()) return CorruptData("an encoded {} cell is missing", type.ToString());
  bool present = in.front() != '\0';
  in.remove_prefix(1);
  if (!present) {
    builder.AppendNull();
    return {};
  }
  std::string_view payload;
  if (!SplitPayload(type, in, payload)) {
    return CorruptData("an encoded {} cell ends early", type.ToString());
  }
  TypeKind kind = type.kind();
  if (kind == TypeKind::kBool) {
    static_cast<BooleanBuilder&>(builder).Append(payload[0] != '\0');
    return {};
  }
  if (kind == TypeKind::kFixedSizeBinary) {
    static_cast<FixedSizeBinaryBuilder&>(builder).Append(payload);
    return {};
  }
  if (IsBinaryKind(kind)) {
    if (type.is_large()) {
      static_cast<LargeStringBuilder&>(builder).Append(payload);
    } else {
      static_cast<StringBuilder&>(builder).Append(payload);
    }
    return {};
  }
  bool fixed = VisitFixed(kind, [&]<typename T>(T) {
    T value;
    std::memcpy(&value, payload.data(), sizeof(T));
    static_cast<NumericBuilder<T>&>(builder).Append(value);
  });
  if (!fixed) return Unsupported("a {} value cannot be decoded", type.ToString());
  return {};
}

int CompareEncoded(const DataType& type, std::string_view a, std::string_view b) {
  bool a_present = !a.empty() && a.front() != '\0';
  bool b_present = !b.empty() && b.front() != '\0';
  if (!a_present || !b_present) return static_cast<int>(a_present) - static_cast<int>(b_present);
  a.remove_prefix(1);
  b.remove_prefix(1);
  std::string_view pa;
  std::string_view pb;
  if (!SplitPayload(type, a, pa) || !SplitPayload(type, b, pb)) return CompareBytes(a, b);
  if (type.kind() == TypeKind::kBool || IsBinaryKind(type.kind())) return CompareBytes(pa, pb);
  int result = 0;
  VisitFixed(type.kind(), [&]<typename T>(T) {
    T x;
    T y;
    std::memcpy(&x, pa.data(), sizeof(T));
    std::memcpy(&y, pb.data(), sizeof(T));
    result = CompareFixed(type.kind(), x, y);
  });
  return result;
}

int CompareCells(const Array& a, int64_t i, const Array& b, int64_t j) {
  TypeKind kind = a.kind();
  if (kind == TypeKind::kBool) {
    return static_cast<int>(a.GetBool(i)) - static_cast<int>(b.GetBool(j));
  }
  if (IsBinaryKind(kind)) return CompareBytes(a.GetView(i), b.GetView(j));
  int result = 0;
  VisitFixed(kind,
             [&]<typename T>(T) { result = CompareFixed(kind, a.Value<T>(i), b.Value<T>(j)); });
  return result;
}

Status AppendCell(ArrayBuilder& builder, const Array& array, int64_t row) {
  if (array.IsNull(row)) {
    builder.AppendNull();
    return {};
  }
  TypeKind kind = array.kind();
  if (kind == TypeKind::kBool) {
    static_cast<BooleanBuilder&>(builder).Append(array.GetBool(row));
    return {};
  }
  if (kind == TypeKind::kFixedSizeBinary) {
    static_cast<FixedSizeBinaryBuilder&>(builder).Append(array.GetView(row));
    return {};
  }
  if (IsBinaryKind(kind)) {
    if (array.type()->is_large()) {
      static_cast<LargeStringBuilder&>(builder).Append(array.GetView(row));
    } else {
      static_cast<StringBuilder&>(builder).Append(array.GetView(row));
    }
    return {};
  }
  if (VisitFixed(kind, [&]<typename T>(T) {
        static_cast<NumericBuilder<T>&>(builder).Append(array.Value<T>(row));
      })) {
    return {};
  }
  return AppendValue(builder, GetValue(array, row));
}

}  // namespace floe::sql::exec
