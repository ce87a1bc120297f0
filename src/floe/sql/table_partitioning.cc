#include "floe/sql/table_partitioning.h"

#include "floe/sql/ddl_schema.h"

namespace floe::sql {
namespace {

// Iceberg's usual partition field name suffix of a transform.
std::string_view Suffix(const Transform& transform) {
  switch (transform.kind()) {
    case Transform::Kind::kBucket:
      return "_bucket";
    case Transform::Kind::kTruncate:
      return "_trunc";
    case Transform::Kind::kYear:
      return "_year";
    case Transform::Kind::kMonth:
      return "_month";
    case Transform::Kind::kDay:
      return "_day";
    case Transform::Kind::kHour:
      return "_hour";
    default:
      return "";
  }
}

}  // namespace

Result<PartitionSpecPtr> BuildPartitionSpec(const std::vector<PartitionField>& fields,
                                            const Schema& schema) {
  std::vector<::floe::PartitionField> out;
  int32_t field_id = PartitionSpec::kFirstFieldId;
  for (const PartitionField& field : fields) {
    const NestedField* source = schema.FindField(field.column);
    if (source == nullptr) {
      return InvalidArgument("PARTITIONED BY: '{}' is not a column of the table", field.column);
    }
    FLOE_ASSIGN_OR_RETURN(Transform transform, ToTransform(field));
    if (!transform.CanTransform(*source->type)) {
      return InvalidArgument("PARTITIONED BY: {} cannot partition column '{}' of type {}",
                             transform.ToString(), field.column, source->type->ToString());
    }
    out.push_back(::floe::PartitionField{.source_ids = {source->id},
                                         .field_id = field_id++,
                                         .name = field.column + std::string(Suffix(transform)),
                                         .transform = transform});
  }
  return PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(out));
}

}  // namespace floe::sql
