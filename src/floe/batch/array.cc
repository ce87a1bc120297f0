#include "floe/batch/array.h"

#include <algorithm>
#include <cstring>

namespace floe {

Array::Array(DataTypePtr type, int64_t length, Buffer validity, Buffer values, Buffer data,
             std::vector<Array> children, int64_t null_count, int64_t offset)
    : type_(std::move(type)),
      length_(length),
      offset_(offset),
      validity_(std::move(validity)),
      values_(std::move(values)),
      data_(std::move(data)),
      children_(std::move(children)) {
  if (null_count >= 0) {
    null_count_ = null_count;
  } else if (validity_.data()) {
    null_count_ = length_ - bit_util::CountSetBits(validity_.data(), offset_, length_);
  } else {
    null_count_ = type_->kind() == TypeKind::kNull ? length_ : 0;
  }
}

Array Array::MakeNulls(const DataTypePtr& type, int64_t length) {
  if (type->kind() == TypeKind::kNull) return Array(type, length, {}, {}, {}, {}, length);
  Buffer validity = Buffer::Zeroed(bit_util::BytesForBits(length));
  Buffer values;
  Buffer data;
  std::vector<Array> children;
  switch (type->kind()) {
    case TypeKind::kBool:
      values = Buffer::Zeroed(bit_util::BytesForBits(length));
      break;
    case TypeKind::kBinary:
    case TypeKind::kString:
      values = Buffer::Zeroed((length + 1) * 4);
      data = Buffer::Zeroed(0);
      break;
    case TypeKind::kList:
    case TypeKind::kMap:
      values = Buffer::Zeroed((length + 1) * 4);
      children.push_back(MakeNulls(type->field(0).type, 0));
      break;
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      values = Buffer::Zeroed((length + 1) * 8);
      data = Buffer::Zeroed(0);
      break;
    case TypeKind::kFixedSizeBinary:
      values = Buffer::Zeroed(length * type->byte_width());
      break;
    case TypeKind::kStruct:
      for (const Field& field : type->fields()) children.push_back(MakeNulls(field.type, length));
      break;
    default:
      values = Buffer::Zeroed(length * type->byte_width());
      break;
  }
  return Array(type, length, std::move(validity), std::move(values), std::move(data),
               std::move(children), length);
}

__int128 Array::GetDecimal(int64_t i) const {
  __int128 value;
  std::memcpy(&value, values_.data() + (offset_ + i) * 16, sizeof(value));
  return value;
}

Array Array::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, length_);
  length = std::clamp<int64_t>(length, 0, length_ - offset);
  Array out = *this;
  out.offset_ = offset_ + offset;
  out.length_ = length;
  if (validity_.data()) {
    out.null_count_ = length - bit_util::CountSetBits(validity_.data(), out.offset_, length);
  } else {
    out.null_count_ = null_count_ != 0 ? length : 0;
  }
  return out;
}

namespace {

template <typename Offset>
Status CheckOffsets(const Array& array, int64_t limit, std::string_view what) {
  const Offset* offsets = array.values().data_as<Offset>() + array.offset();
  if (offsets[0] < 0) {
    return CorruptData("{} array: negative first offset {}", array.type()->ToString(), offsets[0]);
  }
  for (int64_t i = 0; i < array.length(); ++i) {
    if (offsets[i + 1] < offsets[i]) {
      return CorruptData("{} array: offsets decrease at row {} ({} > {})", array.type()->ToString(),
                         i, offsets[i], offsets[i + 1]);
    }
  }
  if (offsets[array.length()] > limit) {
    return CorruptData("{} array: last offset {} beyond the {} {}", array.type()->ToString(),
                       offsets[array.length()], limit, what);
  }
  return Ok();
}

}  // namespace

Status Array::Validate() const {
  if (!type_) return InvalidArgument("array without a type");
  const std::string type_name = type_->ToString();
  if (length_ < 0 || offset_ < 0) {
    return CorruptData("{} array: negative length {} or offset {}", type_name, length_, offset_);
  }
  const int64_t end = offset_ + length_;
  if (null_count_ < 0 || null_count_ > length_) {
    return CorruptData("{} array: null count {} outside [0, {}]", type_name, null_count_, length_);
  }
  if (validity_.data()) {
    if (validity_.size() < bit_util::BytesForBits(end)) {
      return CorruptData("{} array: validity bitmap of {} bytes is too small for {} rows",
                         type_name, validity_.size(), end);
    }
  } else if (null_count_ != 0 && kind() != TypeKind::kNull) {
    return CorruptData("{} array: {} nulls but no validity bitmap", type_name, null_count_);
  }
  auto need_values = [&](int64_t bytes) -> Status {
    if (values_.size() < bytes || (bytes > 0 && !values_.data())) {
      return CorruptData("{} array: values buffer of {} bytes, need {}", type_name, values_.size(),
                         bytes);
    }
    return Ok();
  };
  auto need_children = [&](int n) -> Status {
    if (num_children() != n) {
      return CorruptData("{} array: {} children, expected {}", type_name, num_children(), n);
    }
    return Ok();
  };
  switch (kind()) {
    case TypeKind::kNull:
      return Ok();
    case TypeKind::kBool:
      return need_values(bit_util::BytesForBits(end));
    case TypeKind::kBinary:
    case TypeKind::kString:
      FLOE_RETURN_IF_ERROR(need_values((end + 1) * 4));
      return CheckOffsets<int32_t>(*this, data_.size(), "bytes of data");
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      FLOE_RETURN_IF_ERROR(need_values((end + 1) * 8));
      return CheckOffsets<int64_t>(*this, data_.size(), "bytes of data");
    case TypeKind::kList:
    case TypeKind::kMap: {
      FLOE_RETURN_IF_ERROR(need_children(1));
      FLOE_RETURN_IF_ERROR(need_values((end + 1) * 4));
      const Array& values = children_[0];
      if (!values.type()->Equals(*type_->field(0).type)) {
        return CorruptData("{} array: child of type {}", type_name, values.type()->ToString());
      }
      FLOE_RETURN_IF_ERROR(CheckOffsets<int32_t>(*this, values.length(), "child rows"));
      FLOE_RETURN_IF_ERROR_CTX(values.Validate(), type_name);
      return Ok();
    }
    case TypeKind::kStruct: {
      FLOE_RETURN_IF_ERROR(need_children(type_->num_fields()));
      for (int i = 0; i < num_children(); ++i) {
        const Array& child = children_[i];
        if (!child.type() || !child.type()->Equals(*type_->field(i).type)) {
          return CorruptData("{} array: field {} has type {}", type_name, type_->field(i).name,
                             child.type() ? child.type()->ToString() : "none");
        }
        if (child.length() < end) {
          return CorruptData("{} array: field {} has {} rows, need {}", type_name,
                             type_->field(i).name, child.length(), end);
        }
        FLOE_RETURN_IF_ERROR_CTX(child.Validate(), type_->field(i).name);
      }
      return Ok();
    }
    case TypeKind::kFixedSizeBinary:
      return need_values(end * type_->byte_width());
    default:
      return need_values(end * type_->byte_width());
  }
}

}  // namespace floe
