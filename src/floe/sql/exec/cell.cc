#include <cstring>

#include "floe/sql/exec/cell_internal.h"

namespace floe::sql::exec {
namespace {

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

void AddEncodedSizes(const Array& array, std::span<uint64_t> sizes) {
  TypeKind kind = array.kind();
  bool nulls = array.null_count() > 0;
  auto add = [&](auto payload_size) {
    for (size_t row = 0; row < sizes.size(); ++row) {
      auto r = static_cast<int64_t>(row);
      sizes[row] += nulls && array.IsNull(r) ? 1 : 1 + payload_size(r);
    }
  };
  if (kind == TypeKind::kBool) {
    add([](int64_t) { return uint64_t{1}; });
  } else if (IsBinaryKind(kind)) {
    add([&](int64_t r) { return sizeof(uint32_t) + array.GetView(r).size(); });
  } else if (!VisitFixed(kind, [&]<typename T>(T) { add([](int64_t) { return sizeof(T); }); })) {
    std::string cell;
    for (size_t row = 0; row < sizes.size(); ++row) {
      cell.clear();
      EncodeCell(array, static_cast<int64_t>(row), cell);
      sizes[row] += cell.size();
    }
  }
}

void EncodeColumn(const Array& array, std::span<uint64_t> cursors, char* out) {
  TypeKind kind = array.kind();
  bool nulls = array.null_count() > 0;
  auto encode = [&](auto put) {
    for (size_t row = 0; row < cursors.size(); ++row) {
      auto r = static_cast<int64_t>(row);
      char* at = out + cursors[row];
      if (nulls && array.IsNull(r)) {
        *at = '\0';
        cursors[row] += 1;
      } else {
        *at = '\1';
        cursors[row] += 1 + put(at + 1, r);
      }
    }
  };
  if (kind == TypeKind::kBool) {
    encode([&](char* at, int64_t r) {
      *at = array.GetBool(r) ? '\1' : '\0';
      return size_t{1};
    });
  } else if (IsBinaryKind(kind)) {
    encode([&](char* at, int64_t r) {
      std::string_view bytes = array.GetView(r);
      auto size = static_cast<uint32_t>(bytes.size());
      std::memcpy(at, &size, sizeof(size));
      if (!bytes.empty()) std::memcpy(at + sizeof(size), bytes.data(), bytes.size());
      return sizeof(size) + bytes.size();
    });
  } else if (!VisitFixed(kind, [&]<typename T>(T) {
               encode([&](char* at, int64_t r) {
                 T value = Canonical(FixedAt<T>(array, r));
                 std::memcpy(at, &value, sizeof(T));
                 return sizeof(T);
               });
             })) {
    std::string cell;
    for (size_t row = 0; row < cursors.size(); ++row) {
      cell.clear();
      EncodeCell(array, static_cast<int64_t>(row), cell);
      std::memcpy(out + cursors[row], cell.data(), cell.size());
      cursors[row] += cell.size();
    }
  }
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

bool EncodeKey(const RecordBatch& batch, std::span<const int> columns, int64_t row,
               std::string& out) {
  out.clear();
  for (int column : columns) {
    if (batch.column(column).IsNull(row)) return false;
    EncodeCell(batch.column(column), row, out);
  }
  return true;
}

}  // namespace floe::sql::exec
