#include "floe/batch/builder.h"

#include <limits>

namespace floe {

void ArrayBuilder::StartValidity() {
  validity_.AppendN(length_, true);
  has_validity_ = true;
}

void ArrayBuilder::AppendValidityBitmap(const uint8_t* bits, int64_t offset, int64_t n) {
  int64_t valid = bit_util::CountSetBits(bits, offset, n);
  if (valid == n) {
    AppendValidBits(n);
    return;
  }
  if (!has_validity_) StartValidity();
  validity_.AppendBits(bits, offset, n);
  length_ += n;
  null_count_ += n - valid;
}

Result<ArrayBuilder::FinishedValidity> ArrayBuilder::FinishValidity() {
  FinishedValidity out{{}, length_, null_count_};
  if (has_validity_) out.bitmap = validity_.Finish();
  validity_.Reset();
  has_validity_ = false;
  length_ = 0;
  null_count_ = 0;
  if (!type_error_.empty()) {
    error_.clear();
    return InvalidArgument("building {}: {}", type_->ToString(), type_error_);
  }
  if (!error_.empty()) {
    std::string message = std::move(error_);
    error_.clear();
    return InvalidArgument("building {}: {}", type_->ToString(), message);
  }
  return out;
}

Result<Array> NullBuilder::Finish() {
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  return Array(type(), validity.length, {}, {}, {}, {}, validity.length);
}

Result<Array> BooleanBuilder::Finish() {
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  return Array(type(), validity.length, std::move(validity.bitmap), values_.Finish(), {}, {},
               validity.null_count);
}

template <typename Offset>
Result<Array> BaseBinaryBuilder<Offset>::Finish() {
  int64_t data_size = data_.size();
  Buffer offsets = offsets_.Finish();
  Buffer data = data_.Finish();
  offsets_.Append(Offset{0});
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  if (data_size > std::numeric_limits<Offset>::max()) {
    return ResourceExhausted(
        "{} array of {} rows holds {} bytes, more than its offsets can address", type()->ToString(),
        validity.length, data_size);
  }
  return Array(type(), validity.length, std::move(validity.bitmap), std::move(offsets),
               std::move(data), {}, validity.null_count);
}

template class BaseBinaryBuilder<int32_t>;
template class BaseBinaryBuilder<int64_t>;

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(DataTypePtr type)
    : ArrayBuilder(std::move(type)), width_(this->type()->byte_width()) {
  if (this->type()->kind() != TypeKind::kFixedSizeBinary) {
    SetTypeError("a fixed-size binary builder cannot build " + this->type()->ToString());
  }
}

void FixedSizeBinaryBuilder::WrongWidth(size_t size) {
  SetError(fmt::format("row {}: value of {} bytes, expected {}", length(), size, width_));
}

Result<Array> FixedSizeBinaryBuilder::Finish() {
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  return Array(type(), validity.length, std::move(validity.bitmap), values_.Finish(), {}, {},
               validity.null_count);
}

namespace {

// Finishes a child builder and checks that its row count fits int32 offsets.
Result<Array> FinishChild(ArrayBuilder& builder, std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(Array child, builder.Finish());
  if (child.length() > std::numeric_limits<int32_t>::max()) {
    return ResourceExhausted("{} has {} rows, more than 32-bit offsets can address", what,
                             child.length());
  }
  return child;
}

}  // namespace

ListBuilder::ListBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> value_builder)
    : ArrayBuilder(std::move(type)), values_(std::move(value_builder)) {
  if (this->type()->kind() != TypeKind::kList) {
    SetTypeError("a list builder cannot build " + this->type()->ToString());
  } else if (!values_->type()->Equals(*this->type()->field(0).type)) {
    SetTypeError("element builder builds " + values_->type()->ToString());
  }
}

ListBuilder::ListBuilder(DataTypePtr type)
    : ListBuilder(type, MakeBuilder(type->kind() == TypeKind::kList ? type->field(0).type
                                                                    : DataType::Null())) {}

Result<Array> ListBuilder::Finish() {
  offsets_.Append(static_cast<int32_t>(values_->length()));
  Buffer offsets = offsets_.Finish();
  auto child = FinishChild(*values_, "list elements");
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  if (!child) return std::unexpected(std::move(child).error());
  return Array(type(), validity.length, std::move(validity.bitmap), std::move(offsets), {},
               {std::move(*child)}, validity.null_count);
}

StructBuilder::StructBuilder(DataTypePtr type,
                             std::vector<std::unique_ptr<ArrayBuilder>> field_builders)
    : ArrayBuilder(std::move(type)), fields_(std::move(field_builders)) {
  if (this->type()->kind() != TypeKind::kStruct || this->type()->num_fields() != num_fields()) {
    SetTypeError(
        fmt::format("{} field builders cannot build {}", fields_.size(), this->type()->ToString()));
    return;
  }
  for (int i = 0; i < num_fields(); ++i) {
    if (!fields_[i]->type()->Equals(*this->type()->field(i).type)) {
      SetTypeError(fmt::format("field {} builder builds {}", this->type()->field(i).name,
                               fields_[i]->type()->ToString()));
    }
  }
}

namespace {

std::vector<std::unique_ptr<ArrayBuilder>> MakeFieldBuilders(const DataType& type) {
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  if (type.kind() != TypeKind::kStruct) return builders;
  for (const Field& field : type.fields()) builders.push_back(MakeBuilder(field.type));
  return builders;
}

}  // namespace

StructBuilder::StructBuilder(DataTypePtr type) : StructBuilder(type, MakeFieldBuilders(*type)) {}

void StructBuilder::AppendNulls(int64_t n) {
  for (auto& field : fields_) field->AppendNulls(n);
  AppendNullBits(n);
}

void StructBuilder::Reserve(int64_t n) {
  for (auto& field : fields_) field->Reserve(n);
  ReserveValidity(n);
}

Result<Array> StructBuilder::Finish() {
  std::vector<Array> children;
  children.reserve(fields_.size());
  const int64_t rows = length();
  std::optional<Error> error;
  for (int i = 0; i < num_fields(); ++i) {
    auto child = fields_[i]->Finish();
    if (!child) {
      if (!error) error = std::move(child).error().AddContext(type()->field(i).name);
      continue;
    }
    if (child->length() != rows && !error) {
      error = Error(ErrorKind::kInvalidArgument,
                    fmt::format("building {}: field {} has {} rows, the struct {}",
                                type()->ToString(), type()->field(i).name, child->length(), rows));
    }
    children.push_back(std::move(*child));
  }
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  if (error) return std::unexpected(std::move(*error));
  return Array(type(), validity.length, std::move(validity.bitmap), {}, {}, std::move(children),
               validity.null_count);
}

MapBuilder::MapBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> key_builder,
                       std::unique_ptr<ArrayBuilder> item_builder)
    : ArrayBuilder(std::move(type)),
      keys_(std::move(key_builder)),
      items_(std::move(item_builder)) {
  if (this->type()->kind() != TypeKind::kMap) {
    SetTypeError("a map builder cannot build " + this->type()->ToString());
  } else if (!keys_->type()->Equals(*this->type()->key_field().type) ||
             !items_->type()->Equals(*this->type()->item_field().type)) {
    SetTypeError("key/value builders build " + keys_->type()->ToString() + "/" +
                 items_->type()->ToString());
  }
}

MapBuilder::MapBuilder(DataTypePtr type)
    : MapBuilder(
          type,
          MakeBuilder(type->kind() == TypeKind::kMap ? type->key_field().type : DataType::Null()),
          MakeBuilder(type->kind() == TypeKind::kMap ? type->item_field().type
                                                     : DataType::Null())) {}

Result<Array> MapBuilder::Finish() {
  offsets_.Append(static_cast<int32_t>(keys_->length()));
  Buffer offsets = offsets_.Finish();
  auto keys = FinishChild(*keys_, "map keys");
  auto items = FinishChild(*items_, "map values");
  FLOE_ASSIGN_OR_RETURN(FinishedValidity validity, FinishValidity());
  if (!keys) return std::unexpected(std::move(keys).error());
  if (!items) return std::unexpected(std::move(items).error());
  if (keys->length() != items->length()) {
    return InvalidArgument("building {}: {} keys but {} values", type()->ToString(), keys->length(),
                           items->length());
  }
  if (keys->null_count() != 0) {
    return InvalidArgument("building {}: {} null keys", type()->ToString(), keys->null_count());
  }
  int64_t entries_length = keys->length();
  Array entries(type()->field(0).type, entries_length, {}, {}, {},
                {std::move(*keys), std::move(*items)}, 0);
  return Array(type(), validity.length, std::move(validity.bitmap), std::move(offsets), {},
               {std::move(entries)}, validity.null_count);
}

std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type) {
  switch (type->kind()) {
    case TypeKind::kNull:
      return std::make_unique<NullBuilder>();
    case TypeKind::kBool:
      return std::make_unique<BooleanBuilder>();
    case TypeKind::kInt8:
      return std::make_unique<Int8Builder>(type);
    case TypeKind::kInt16:
      return std::make_unique<Int16Builder>(type);
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      return std::make_unique<Int32Builder>(type);
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      return std::make_unique<Int64Builder>(type);
    case TypeKind::kUInt8:
      return std::make_unique<UInt8Builder>(type);
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      return std::make_unique<UInt16Builder>(type);
    case TypeKind::kUInt32:
      return std::make_unique<UInt32Builder>(type);
    case TypeKind::kUInt64:
      return std::make_unique<UInt64Builder>(type);
    case TypeKind::kFloat32:
      return std::make_unique<Float32Builder>(type);
    case TypeKind::kFloat64:
      return std::make_unique<Float64Builder>(type);
    case TypeKind::kDecimal128:
      return std::make_unique<Decimal128Builder>(type);
    case TypeKind::kBinary:
    case TypeKind::kString:
      return std::make_unique<StringBuilder>(type);
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      return std::make_unique<LargeStringBuilder>(type);
    case TypeKind::kFixedSizeBinary:
      return std::make_unique<FixedSizeBinaryBuilder>(type);
    case TypeKind::kList:
      return std::make_unique<ListBuilder>(type);
    case TypeKind::kStruct:
      return std::make_unique<StructBuilder>(type);
    case TypeKind::kMap:
      return std::make_unique<MapBuilder>(type);
  }
  return std::make_unique<NullBuilder>();
}

}  // namespace floe
