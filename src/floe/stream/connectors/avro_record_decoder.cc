#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "floe/batch/builder.h"
#include "floe/format/avro/batch_decoder.h"
#include "floe/format/avro/encoding.h"
#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"
#include "floe/stream/connectors/avro_record_decoder_internal.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

Result<Json> AvroType(const DataType& type, bool nullable, const std::string& path, int& records);

// A record of the fields, named by path (Avro names must be unique in a schema).
Result<Json> AvroRecord(const std::vector<Field>& fields, const std::string& path, int& records) {
  Json::Array avro_fields;
  for (const Field& field : fields) {
    if (!avro::IsValidName(field.name)) {
      return InvalidArgument("format 'avro': column {}{} is not an Avro name", path, field.name);
    }
    FLOE_ASSIGN_OR_RETURN(Json type,
                          AvroType(*field.type, field.nullable, path + field.name, records));
    Json::Object avro_field = {{"name", field.name}, {"type", std::move(type)}};
    if (field.nullable) avro_field.emplace_back("default", Json());
    avro_fields.emplace_back(std::move(avro_field));
  }
  return Json(Json::Object{{"type", "record"},
                           {"name", fmt::format("record_{}", records++)},
                           {"fields", std::move(avro_fields)}});
}

Result<Json> NonNullAvroType(const DataType& type, const std::string& path, int& records) {
  auto logical = [](const char* base, const char* logical_type) {
    return Json(Json::Object{{"type", base}, {"logicalType", logical_type}});
  };
  switch (type.kind()) {
    case TypeKind::kBool:
      return Json("boolean");
    case TypeKind::kInt32:
      return Json("int");
    case TypeKind::kInt64:
      return Json("long");
    case TypeKind::kFloat32:
      return Json("float");
    case TypeKind::kFloat64:
      return Json("double");
    case TypeKind::kString:
      return Json("string");
    case TypeKind::kBinary:
      return Json("bytes");
    case TypeKind::kDate32:
      return logical("int", "date");
    case TypeKind::kTimestamp:
      // Flink writes TIMESTAMP(0..3) as timestamp-millis.
      if (type.unit() == TimeUnit::kMicro && type.precision() > 3) {
        return logical("long", type.utc() ? "timestamp-micros" : "local-timestamp-micros");
      }
      break;
    case TypeKind::kDecimal128:
      return Json(Json::Object{{"type", "bytes"},
                               {"logicalType", "decimal"},
                               {"precision", type.precision()},
                               {"scale", type.scale()}});
    case TypeKind::kList: {
      const Field& element = type.field(0);
      FLOE_ASSIGN_OR_RETURN(Json items,
                            AvroType(*element.type, element.nullable, path + ".element", records));
      return Json(Json::Object{{"type", "array"}, {"items", std::move(items)}});
    }
    case TypeKind::kMap: {
      if (type.key_field().type->kind() != TypeKind::kString) break;
      const Field& value = type.item_field();
      FLOE_ASSIGN_OR_RETURN(Json values,
                            AvroType(*value.type, value.nullable, path + ".value", records));
      return Json(Json::Object{{"type", "map"}, {"values", std::move(values)}});
    }
    case TypeKind::kStruct: {
      std::vector<Field> fields;
      for (int i = 0; i < type.num_fields(); ++i) fields.push_back(type.field(i));
      return AvroRecord(fields, path + ".", records);
    }
    default:
      break;
  }
  return InvalidArgument("format 'avro': column {} of type {} has no Avro form here", path,
                         type.ToString());
}

Result<Json> AvroType(const DataType& type, bool nullable, const std::string& path, int& records) {
  FLOE_ASSIGN_OR_RETURN(Json avro_type, NonNullAvroType(type, path, records));
  if (!nullable) return avro_type;
  return Json(Json::Array{Json("null"), std::move(avro_type)});
}

class AvroDecoder : public RecordDecoder {
 public:
  AvroDecoder(BatchSchemaPtr schema, std::shared_ptr<const avro::ResolvedSchema> resolved,
              DataTypePtr row_type, bool ignore_errors)
      : schema_(std::move(schema)),
        resolved_(std::move(resolved)),
        row_type_(std::move(row_type)),
        ignore_errors_(ignore_errors),
        builder_(MakeBuilder(row_type_)) {}

  Status Decode(std::optional<std::string_view> record) override {
    if (!record) return Ok();
    Status decoded = DecodeOne(*record);
    if (!decoded) {
      if (!ignore_errors_) return decoded;
      ++skipped_;
      // The builder may hold part of the failed record: made again from the good ones.
      return Rebuild();
    }
    Kept(record, RowKind::kInsert);
    return Ok();
  }

  Status AppendNulls(RowKind kind) override {
    for (const Field& field : schema_->fields()) {
      if (!field.nullable) {
        return InvalidArgument("a null row, but column {} is not nullable", field.name);
      }
    }
    builder_->AppendNulls(1);
    Kept(std::nullopt, kind);
    return Ok();
  }

  int64_t decoded_rows() const override { return static_cast<int64_t>(kinds_.size()); }

  Result<std::optional<RecordBatch>> FinishDecoded() override {
    if (kinds_.empty()) return std::optional<RecordBatch>();
    FLOE_ASSIGN_OR_RETURN(Array rows, builder_->Finish());
    builder_ = MakeBuilder(row_type_);
    std::vector<Array> columns;
    for (int c = 0; c < rows.num_children(); ++c) columns.push_back(rows.field(c));
    std::optional<Buffer> kinds;
    if (any_change_) kinds = Buffer::CopyOf(kinds_.data(), std::ssize(kinds_));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema_, std::move(columns),
                                                               rows.length(), std::move(kinds)));
    kinds_.clear();
    kept_.clear();
    any_change_ = false;
    return std::optional<RecordBatch>(std::move(batch));
  }

 private:
  Status DecodeOne(std::string_view record) {
    avro::Decoder decoder(std::as_bytes(std::span(record.data(), record.size())));
    FLOE_RETURN_IF_ERROR(avro::DecodeToBuilder(resolved_->root(), decoder, 1, *builder_));
    if (!decoder.at_end()) {
      return InvalidArgument("{} bytes after the Avro record", decoder.remaining());
    }
    return Ok();
  }

  // A row of the batch: with ignore-parse-errors its record is kept until Finish for Rebuild.
  void Kept(std::optional<std::string_view> record, RowKind kind) {
    kinds_.push_back(static_cast<uint8_t>(kind));
    any_change_ |= kind != RowKind::kInsert;
    if (ignore_errors_) kept_.emplace_back(record);
  }

  Status Rebuild() {
    builder_ = MakeBuilder(row_type_);
    for (const std::optional<std::string>& record : kept_) {
      if (record) {
        FLOE_RETURN_IF_ERROR(DecodeOne(*record));
      } else {
        builder_->AppendNulls(1);
      }
    }
    return Ok();
  }

  BatchSchemaPtr schema_;
  std::shared_ptr<const avro::ResolvedSchema> resolved_;
  DataTypePtr row_type_;
  bool ignore_errors_;
  std::unique_ptr<ArrayBuilder> builder_;
  std::vector<uint8_t> kinds_;  // by row since the last Finish
  std::vector<std::optional<std::string>> kept_;
  bool any_change_ = false;
};

}  // namespace

Result<std::unique_ptr<RecordDecoder>> MakeAvroDecoder(BatchSchemaPtr schema,
                                                       const std::vector<std::string>& not_null,
                                                       bool ignore_errors) {
  std::vector<Field> written = schema->fields();
  for (Field& field : written) {
    if (std::ranges::find(not_null, field.name) != not_null.end()) field.nullable = false;
  }
  int records = 0;
  FLOE_ASSIGN_OR_RETURN(Json root, AvroRecord(written, "", records));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const avro::Schema> avro_schema,
                        avro::Schema::FromJson(root));
  FLOE_ASSIGN_OR_RETURN(auto resolved, avro::ResolvedSchema::Make(avro_schema, nullptr));
  FLOE_ASSIGN_OR_RETURN(DataTypePtr row_type, avro::ToBatchType(avro_schema->root()));
  for (int c = 0; c < schema->num_fields(); ++c) {
    const Field& column = schema->field(c);
    const Field& decoded = row_type->field(c);
    if (!decoded.type->Equals(*column.type) || decoded.nullable != written[c].nullable) {
      return InvalidArgument("format 'avro': column {} of type {} has no Avro form here",
                             column.name, column.type->ToString());
    }
  }
  return std::unique_ptr<RecordDecoder>(
      new AvroDecoder(std::move(schema), std::move(resolved), std::move(row_type), ignore_errors));
}

}  // namespace floe::stream
