#pragma once

// Builders append values row by row (or many at once) and Finish() into an immutable Array. They
// are what decoders write into, so the typed builders are final classes whose Append methods are
// inline and non-virtual: hold the concrete type (Int64Builder, StringBuilder...) in a hot loop.
// The virtual interface (ArrayBuilder) is for code that walks a schema generically (MakeBuilder)
// and for nested builders, where each child is reached once per column chunk and then cast to its
// type.
//
// Memory grows by doubling; Reserve() ahead of a loop and use UnsafeAppend to skip the capacity
// checks. The validity bitmap is only created at the first null, so all-valid columns cost nothing.
// Mistakes that cannot be reported per value (a fixed-size value of the wrong width, a builder of
// the wrong width for its type, offsets beyond 2 GiB in a 32-bit-offset array, struct children of
// unequal lengths) make Finish() fail. Finish() leaves the builder empty and reusable.

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/buffer.h"
#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe {

class ArrayBuilder {
 public:
  explicit ArrayBuilder(DataTypePtr type) : type_(std::move(type)) {}
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const DataTypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  void AppendNull() { AppendNulls(1); }
  virtual void AppendNulls(int64_t n) = 0;
  // Room for n more rows (and, for binary builders, no data bytes: see ReserveData).
  virtual void Reserve(int64_t n) = 0;
  virtual Result<Array> Finish() = 0;

 protected:
  void AppendValidBit() {
    if (has_validity_) validity_.Append(true);
    ++length_;
  }
  void UnsafeAppendValidBit() {
    if (has_validity_) validity_.UnsafeAppend(true);
    ++length_;
  }
  void AppendValidBits(int64_t n) {
    if (has_validity_) validity_.AppendN(n, true);
    length_ += n;
  }
  void AppendNullBits(int64_t n) {
    if (!has_validity_) StartValidity();
    validity_.AppendN(n, false);
    length_ += n;
    null_count_ += n;
  }
  // Appends n validity bits from a bitmap (bit set = valid).
  void AppendValidityBitmap(const uint8_t* bits, int64_t offset, int64_t n);
  void ReserveValidity(int64_t n) {
    if (has_validity_) validity_.Reserve(n);
  }
  // Records a misuse for Finish() to report (the first one wins).
  void SetError(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }
  // Records that the builder cannot build its type at all: every Finish() fails.
  void SetTypeError(std::string message) {
    if (type_error_.empty()) type_error_ = std::move(message);
  }
  // Hands over the bitmap (empty without nulls) and the null count, resets the row count, and fails
  // with a recorded misuse.
  struct FinishedValidity {
    Buffer bitmap;
    int64_t length;
    int64_t null_count;
  };
  Result<FinishedValidity> FinishValidity();

 private:
  void StartValidity();

  DataTypePtr type_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  bool has_validity_ = false;
  BitmapBuilder validity_;
  std::string error_;
  std::string type_error_;
};

// Builds arrays of the null type.
class NullBuilder final : public ArrayBuilder {
 public:
  NullBuilder() : ArrayBuilder(DataType::Null()) {}
  void AppendNulls(int64_t n) override { AppendNullBits(n); }
  void Reserve(int64_t) override {}
  Result<Array> Finish() override;
};

template <typename T>
DataTypePtr DefaultTypeFor() {
  if constexpr (std::is_same_v<T, int8_t>) {
    return DataType::Int8();
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return DataType::Int16();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return DataType::Int32();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return DataType::Int64();
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return DataType::UInt8();
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return DataType::UInt16();
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return DataType::UInt32();
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return DataType::UInt64();
  } else if constexpr (std::is_same_v<T, float>) {
    return DataType::Float32();
  } else if constexpr (std::is_same_v<T, double>) {
    return DataType::Float64();
  } else {
    static_assert(std::is_same_v<T, __int128>, "no fixed-width type for this C type");
    return DataType::Decimal128(38, 0);
  }
}

// Fixed-width values of C type T. The type may be any fixed-width type of sizeof(T) bytes: int32_t
// for date32, int64_t for time64 and timestamp, uint16_t for float16 (raw bits), __int128 for
// decimal128 (the unscaled value).
template <typename T>
class NumericBuilder final : public ArrayBuilder {
 public:
  explicit NumericBuilder(DataTypePtr type = DefaultTypeFor<T>()) : ArrayBuilder(std::move(type)) {
    if (this->type()->byte_width() != static_cast<int32_t>(sizeof(T))) {
      SetTypeError("a builder of " + std::to_string(sizeof(T)) + "-byte values cannot build " +
                   this->type()->ToString());
    }
  }

  void Append(T value) {
    values_.Append(value);
    AppendValidBit();
  }
  // After Reserve(n): up to n appends without capacity checks.
  void UnsafeAppend(T value) {
    values_.UnsafeAppend(value);
    UnsafeAppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    values_.AppendZeros(n * static_cast<int64_t>(sizeof(T)));
    AppendNullBits(n);
  }
  // All valid.
  void AppendValues(std::span<const T> values) {
    values_.Append(values.data(), static_cast<int64_t>(values.size_bytes()));
    AppendValidBits(static_cast<int64_t>(values.size()));
  }
  // values has a slot for every row; a clear bit at valid_bits[bits_offset + i] makes row i null.
  void AppendValues(std::span<const T> values, const uint8_t* valid_bits, int64_t bits_offset = 0) {
    values_.Append(values.data(), static_cast<int64_t>(values.size_bytes()));
    AppendValidityBitmap(valid_bits, bits_offset, static_cast<int64_t>(values.size()));
  }
  // n rows whose validity is valid_bits[bits_offset..+n); non_null holds only the present values,
  // in order (as a Parquet page stores them), and must have one per set bit.
  void AppendValuesSpaced(std::span<const T> non_null, const uint8_t* valid_bits,
                          int64_t bits_offset, int64_t n) {
    const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
    values_.Reserve(bytes);
    T* out = reinterpret_cast<T*>(values_.mutable_data() + values_.size());
    values_.ResizeUninitialized(values_.size() + bytes);
    size_t next = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = bit_util::GetBit(valid_bits, bits_offset + i);
      out[i] = valid && next < non_null.size() ? non_null[next] : T{};
      next += valid;
    }
    if (next != non_null.size()) {
      SetError("AppendValuesSpaced got " + std::to_string(non_null.size()) + " values for " +
               std::to_string(next) + " present rows");
    }
    AppendValidityBitmap(valid_bits, bits_offset, n);
  }
  // n valid rows whose values the caller writes into the returned span (before the next append),
  // e.g. a decoder unpacking straight into the column.
  std::span<T> AppendUninitialized(int64_t n) {
    int64_t bytes = n * static_cast<int64_t>(sizeof(T));
    values_.Reserve(bytes);
    T* out = reinterpret_cast<T*>(values_.mutable_data() + values_.size());
    values_.ResizeUninitialized(values_.size() + bytes);
    AppendValidBits(n);
    return {out, static_cast<size_t>(n)};
  }
  void Reserve(int64_t n) override {
    values_.Reserve(n * static_cast<int64_t>(sizeof(T)));
    ReserveValidity(n);
  }
  // The value of row i appended so far.
  T GetValue(int64_t i) const {
    T value;
    std::memcpy(&value, values_.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return value;
  }
  Result<Array> Finish() override {
    FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
    return Array(type(), validity.length, std::move(validity.bitmap), values_.Finish(), {}, {},
                 validity.null_count);
  }

 private:
  BufferBuilder values_;
};

using Int8Builder = NumericBuilder<int8_t>;
using Int16Builder = NumericBuilder<int16_t>;
using Int32Builder = NumericBuilder<int32_t>;
using Int64Builder = NumericBuilder<int64_t>;
using UInt8Builder = NumericBuilder<uint8_t>;
using UInt16Builder = NumericBuilder<uint16_t>;
using UInt32Builder = NumericBuilder<uint32_t>;
using UInt64Builder = NumericBuilder<uint64_t>;
using Float32Builder = NumericBuilder<float>;
using Float64Builder = NumericBuilder<double>;
// Construct these with their DataType (e.g. Date32Builder(DataType::Date32())).
using Float16Builder = NumericBuilder<uint16_t>;
using Date32Builder = NumericBuilder<int32_t>;
using Time64Builder = NumericBuilder<int64_t>;
using TimestampBuilder = NumericBuilder<int64_t>;
using Decimal128Builder = NumericBuilder<__int128>;

class BooleanBuilder final : public ArrayBuilder {
 public:
  BooleanBuilder() : ArrayBuilder(DataType::Bool()) {}
  void Append(bool value) {
    values_.Append(value);
    AppendValidBit();
  }
  void UnsafeAppend(bool value) {
    values_.UnsafeAppend(value);
    UnsafeAppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    values_.AppendN(n, false);
    AppendNullBits(n);
  }
  // All valid; one bool per row.
  void AppendValues(std::span<const bool> values) {
    values_.Reserve(static_cast<int64_t>(values.size()));
    for (bool value : values) values_.UnsafeAppend(value);
    AppendValidBits(static_cast<int64_t>(values.size()));
  }
  // Values from a bitmap; valid_bits (optional) as in NumericBuilder::AppendValues.
  void AppendBits(const uint8_t* value_bits, int64_t offset, int64_t n,
                  const uint8_t* valid_bits = nullptr, int64_t valid_offset = 0) {
    values_.AppendBits(value_bits, offset, n);
    if (valid_bits) {
      AppendValidityBitmap(valid_bits, valid_offset, n);
    } else {
      AppendValidBits(n);
    }
  }
  void Reserve(int64_t n) override {
    values_.Reserve(n);
    ReserveValidity(n);
  }
  Result<Array> Finish() override;

 private:
  BitmapBuilder values_;
};

// string/binary (Offset = int32_t) and large_string/large_binary (Offset = int64_t).
template <typename Offset>
class BaseBinaryBuilder final : public ArrayBuilder {
 public:
  explicit BaseBinaryBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {
    if (!this->type()->is_binary_like() ||
        this->type()->is_large() != (sizeof(Offset) == sizeof(int64_t))) {
      SetTypeError("a binary builder with " + std::to_string(sizeof(Offset) * 8) +
                   "-bit offsets cannot build " + this->type()->ToString());
    }
    offsets_.Append(Offset{0});
  }

  void Append(std::string_view value) {
    data_.Append(value.data(), static_cast<int64_t>(value.size()));
    offsets_.Append(static_cast<Offset>(data_.size()));
    AppendValidBit();
  }
  void Append(const void* bytes, int64_t n) {
    Append(std::string_view(static_cast<const char*>(bytes), static_cast<size_t>(n)));
  }
  // After Reserve(rows) and ReserveData(bytes).
  void UnsafeAppend(std::string_view value) {
    data_.UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
    offsets_.UnsafeAppend(static_cast<Offset>(data_.size()));
    UnsafeAppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    offsets_.Reserve(n * static_cast<int64_t>(sizeof(Offset)));
    for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(static_cast<Offset>(data_.size()));
    AppendNullBits(n);
  }
  void Reserve(int64_t n) override {
    offsets_.Reserve(n * static_cast<int64_t>(sizeof(Offset)));
    ReserveValidity(n);
  }
  void ReserveData(int64_t bytes) { data_.Reserve(bytes); }
  int64_t data_size() const { return data_.size(); }
  std::string_view GetView(int64_t i) const {
    const Offset* offsets = reinterpret_cast<const Offset*>(offsets_.data());
    return {reinterpret_cast<const char*>(data_.data()) + offsets[i],
            static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  Result<Array> Finish() override;

 private:
  BufferBuilder offsets_;
  BufferBuilder data_;
};

using StringBuilder = BaseBinaryBuilder<int32_t>;       // DataType::String() or Binary()
using LargeStringBuilder = BaseBinaryBuilder<int64_t>;  // DataType::LargeString() or LargeBinary()

class FixedSizeBinaryBuilder final : public ArrayBuilder {
 public:
  explicit FixedSizeBinaryBuilder(DataTypePtr type);
  int32_t byte_width() const { return width_; }
  // value must have byte_width() bytes; otherwise Finish() fails.
  void Append(std::string_view value) {
    if (static_cast<int64_t>(value.size()) != width_) [[unlikely]] {
      WrongWidth(value.size());
    }
    values_.Reserve(width_);
    values_.UnsafeAppend(value.data(), std::min<int64_t>(width_, value.size()));
    if (static_cast<int64_t>(value.size()) < width_) values_.AppendZeros(width_ - value.size());
    AppendValidBit();
  }
  // Appends exactly byte_width() bytes.
  void AppendBytes(const void* bytes) {
    values_.Append(bytes, width_);
    AppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    values_.AppendZeros(n * width_);
    AppendNullBits(n);
  }
  void Reserve(int64_t n) override {
    values_.Reserve(n * width_);
    ReserveValidity(n);
  }
  Result<Array> Finish() override;

 private:
  void WrongWidth(size_t size);
  int32_t width_;
  BufferBuilder values_;
};

// Lists: call Append() to start each list, then append its elements to value_builder().
class ListBuilder final : public ArrayBuilder {
 public:
  // The value builder must build the list's element type; MakeBuilder makes one.
  ListBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> value_builder);
  explicit ListBuilder(DataTypePtr type);

  void Append() {
    offsets_.Append(static_cast<int32_t>(values_->length()));
    AppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    for (int64_t i = 0; i < n; ++i) offsets_.Append(static_cast<int32_t>(values_->length()));
    AppendNullBits(n);
  }
  void Reserve(int64_t n) override {
    offsets_.Reserve(n * 4);
    ReserveValidity(n);
  }
  ArrayBuilder* value_builder() { return values_.get(); }
  // The value builder as its concrete type, e.g. value_builder<Int64Builder>().
  template <typename B>
  B& value_builder() {
    return static_cast<B&>(*values_);
  }
  Result<Array> Finish() override;

 private:
  std::unique_ptr<ArrayBuilder> values_;
  BufferBuilder offsets_;
};

// Structs: append to every field builder, then Append() (or AppendNull(), which also appends a null
// to every field builder).
class StructBuilder final : public ArrayBuilder {
 public:
  StructBuilder(DataTypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders);
  explicit StructBuilder(DataTypePtr type);

  void Append() { AppendValidBit(); }
  void AppendNulls(int64_t n) override;
  void Reserve(int64_t n) override;
  int num_fields() const { return static_cast<int>(fields_.size()); }
  ArrayBuilder* field_builder(int i) { return fields_[i].get(); }
  template <typename B>
  B& field_builder(int i) {
    return static_cast<B&>(*fields_[i]);
  }
  Result<Array> Finish() override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

// Maps: Append() starts each map, then append each entry's key to key_builder() and its value to
// item_builder(). Keys must not be null.
class MapBuilder final : public ArrayBuilder {
 public:
  MapBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> key_builder,
             std::unique_ptr<ArrayBuilder> item_builder);
  explicit MapBuilder(DataTypePtr type);

  void Append() {
    offsets_.Append(static_cast<int32_t>(keys_->length()));
    AppendValidBit();
  }
  void AppendNulls(int64_t n) override {
    for (int64_t i = 0; i < n; ++i) offsets_.Append(static_cast<int32_t>(keys_->length()));
    AppendNullBits(n);
  }
  void Reserve(int64_t n) override {
    offsets_.Reserve(n * 4);
    ReserveValidity(n);
  }
  ArrayBuilder* key_builder() { return keys_.get(); }
  ArrayBuilder* item_builder() { return items_.get(); }
  template <typename B>
  B& key_builder() {
    return static_cast<B&>(*keys_);
  }
  template <typename B>
  B& item_builder() {
    return static_cast<B&>(*items_);
  }
  Result<Array> Finish() override;

 private:
  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> items_;
  BufferBuilder offsets_;
};

// A builder for any type, nested builders included (children made recursively). The concrete class
// per kind: NullBuilder, BooleanBuilder, NumericBuilder<T> (int8..uint64, float16 as uint16_t,
// float, double, decimal128 as __int128, date32 as int32_t, time64/timestamp as int64_t),
// StringBuilder (string, binary), LargeStringBuilder, FixedSizeBinaryBuilder, ListBuilder,
// StructBuilder, MapBuilder.
std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type);

}  // namespace floe
