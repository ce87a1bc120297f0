#include <algorithm>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/take.h"
#include "floe/sql/scalar/columns_internal.h"

namespace floe::sql::scalar {
namespace {

// The fixed-width value of a Value as the C type T, when it holds one.
template <typename T>
std::optional<T> FixedOf(const Value& value) {
  if (value.is<int64_t>()) return static_cast<T>(value.get<int64_t>());
  if (value.is<double>()) return static_cast<T>(value.get<double>());
  if (value.is<float>()) return static_cast<T>(value.get<float>());
  if (value.is<DecimalValue>()) return static_cast<T>(value.get<DecimalValue>().unscaled);
  if (value.is<DateValue>()) return static_cast<T>(value.get<DateValue>().days);
  if (value.is<TimeValue>()) return static_cast<T>(value.get<TimeValue>().value);
  if (value.is<TimestampValue>()) return static_cast<T>(value.get<TimestampValue>().value);
  return std::nullopt;
}

Buffer CopyValidity(const Array& array, int64_t n) {
  BufferBuilder out;
  out.Resize(bit_util::BytesForBits(n));
  bit_util::CopyBits(array.validity().data(), array.offset(), n, out.mutable_data(), 0);
  return out.Finish();
}

}  // namespace

Result<Array> ConstantArray(const Value& value, const DataTypePtr& type, int64_t n) {
  if (value.is_null()) return Array::MakeNulls(type, n);
  if (type->kind() == TypeKind::kBool && value.is<bool>()) {
    const bool b = value.get<bool>();
    return MakeBool(n, {}, [&](uint8_t* bits) {
      if (b) bit_util::SetBitsTo(bits, 0, n, true);
    });
  }
  if (type->kind() == TypeKind::kString || type->kind() == TypeKind::kBinary) {
    std::string_view bytes = value.is<std::string>() ? std::string_view(value.get<std::string>())
                             : value.is<BinaryValue>()
                                 ? std::string_view(value.get<BinaryValue>().bytes)
                                 : std::string_view();
    if (!value.is<std::string>() && !value.is<BinaryValue>()) {
      return InvalidArgument("a {} constant of type {}", value.ToJson(), type->ToString());
    }
    StringColumn column(n, type);
    for (int64_t i = 0; i < n; ++i) column.Append(bytes);
    return column.Finish();
  }
  std::optional<Array> out = DispatchFixed(type->kind(), [&](auto tag) -> std::optional<Array> {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::monostate>) {
      return std::nullopt;
    } else {
      std::optional<T> fixed = FixedOf<T>(value);
      if (!fixed) return std::nullopt;
      return MakeFixed<T>(type, n, {}, [&](T* out) { std::fill(out, out + n, *fixed); });
    }
  });
  if (out) return *std::move(out);
  // Nested and rare kinds: the generic path, one value repeated.
  std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
  for (int64_t i = 0; i < n; ++i) FLOE_RETURN_IF_ERROR(AppendValue(*builder, value));
  return builder->Finish();
}

Validity ValidityOf(const Array& array) {
  if (array.null_count() == 0) return {};
  if (!array.validity()) return AndValidity(std::span(&array, 1), array.length());
  if (array.offset() == 0) return {array.validity(), array.null_count()};
  return {CopyValidity(array, array.length()), array.null_count()};
}

Validity AndValidity(std::span<const Array> arrays, int64_t n) {
  Validity out;
  BufferBuilder bits;
  bool started = false;
  for (const Array& array : arrays) {
    if (array.null_count() == 0) continue;
    if (!started) {
      bits.Resize(bit_util::BytesForBits(n));
      bit_util::SetBitsTo(bits.mutable_data(), 0, n, true);
      started = true;
    }
    uint8_t* dst = bits.mutable_data();
    if (!array.validity()) {
      // The null type: no row is valid.
      bit_util::SetBitsTo(dst, 0, n, false);
      continue;
    }
    if (array.offset() % 8 == 0) {
      const uint8_t* src = array.validity().data() + array.offset() / 8;
      const int64_t bytes = bit_util::BytesForBits(n);
      for (int64_t b = 0; b < bytes; ++b) dst[b] &= src[b];
    } else {
      Buffer copy = CopyValidity(array, n);
      const int64_t bytes = bit_util::BytesForBits(n);
      for (int64_t b = 0; b < bytes; ++b) dst[b] &= copy.data()[b];
    }
  }
  if (!started) return out;
  out.bitmap = bits.Finish();
  out.null_count = n - bit_util::CountSetBits(out.bitmap.data(), 0, n);
  if (out.null_count == 0) out.bitmap = {};
  return out;
}

Validity ArgsValidity(std::span<const Array> args, int64_t n) {
  std::vector<Array> columns;
  for (const Array& arg : args) {
    if (!IsScalarArg(arg, n)) {
      columns.push_back(arg);
    } else if (arg.IsNull(0)) {
      return {Buffer::Zeroed(bit_util::BytesForBits(n)), n};
    }
  }
  return AndValidity(columns, n);
}

StringColumn::StringColumn(int64_t rows, DataTypePtr type) : type_(std::move(type)), rows_(rows) {
  offsets_.Reserve((rows + 1) * 4);
  offsets_.UnsafeAppend(int32_t{0});
}

void StringColumn::StartNulls() {
  has_nulls_ = true;
  validity_.Resize(bit_util::BytesForBits(rows_));
  bit_util::SetBitsTo(validity_.mutable_data(), 0, rows_, true);
}

Result<Array> StringColumn::Finish() {
  if (length_ != rows_) {
    return InternalError("a string column got {} rows, expected {}", length_, rows_);
  }
  if (data_.size() > INT32_MAX) {
    return ResourceExhausted("a string column of {} bytes exceeds 2 GiB", data_.size());
  }
  return Array(type_, rows_, has_nulls_ ? validity_.Finish() : Buffer(), offsets_.Finish(),
               data_.Finish(), {}, null_count_);
}

Result<Array> SelectRows(std::span<const Array> arrays, std::span<const int32_t> choice,
                         const DataTypePtr& type, int64_t n) {
  BufferBuilder validity;
  validity.Resize(bit_util::BytesForBits(n));
  uint8_t* valid_bits = validity.mutable_data();
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Array& from = arrays[choice[i]];
    if (from.IsNull(i)) {
      ++nulls;
    } else {
      bit_util::SetBit(valid_bits, i);
    }
  }
  Validity valid{nulls ? validity.Finish() : Buffer(), nulls};
  if (type->kind() == TypeKind::kNull) return Array::MakeNulls(type, n);
  if (type->kind() == TypeKind::kBool) {
    return MakeBool(n, std::move(valid), [&](uint8_t* bits) {
      for (int64_t i = 0; i < n; ++i) {
        const Array& from = arrays[choice[i]];
        if (from.GetBool(i)) bit_util::SetBit(bits, i);
      }
    });
  }
  if (type->kind() == TypeKind::kString || type->kind() == TypeKind::kBinary) {
    StringColumn column(n, type);
    for (int64_t i = 0; i < n; ++i) {
      const Array& from = arrays[choice[i]];
      if (from.IsNull(i)) {
        column.AppendNull();
      } else {
        column.Append(from.GetView(i));
      }
    }
    return column.Finish();
  }
  std::optional<Array> out = DispatchFixed(type->kind(), [&](auto tag) -> std::optional<Array> {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::monostate>) {
      return std::nullopt;
    } else {
      std::vector<const T*> sources;
      for (const Array& array : arrays) sources.push_back(array.Values<T>().data());
      return MakeFixed<T>(type, n, std::move(valid), [&](T* dst) {
        for (int64_t i = 0; i < n; ++i) dst[i] = sources[choice[i]][i];
      });
    }
  });
  if (out) return *std::move(out);
  std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
  for (int64_t i = 0; i < n; ++i) {
    FLOE_RETURN_IF_ERROR(AppendValue(*builder, GetValue(arrays[choice[i]], i)));
  }
  return builder->Finish();
}

}  // namespace floe::sql::scalar
