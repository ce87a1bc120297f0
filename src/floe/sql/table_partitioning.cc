#include "floe/sql/table_partitioning.h"

#include <limits>

namespace floe::sql {
namespace {

Result<int32_t> Argument(const PartitionField& field) {
  if (!field.argument.has_value() || *field.argument <= 0 ||
      *field.argument > std::numeric_limits<int32_t>::max()) {
    return InvalidArgument("partition transform {}(N, {}) needs a positive N", field.transform,
                           field.column);
  }
  return static_cast<int32_t>(*field.argument);
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
    Transform transform = Transform::Identity();
    std::string suffix;
    const std::string& name = field.transform;
    if (name.empty() || name == "identity") {
      transform = Transform::Identity();
    } else if (name == "bucket") {
      FLOE_ASSIGN_OR_RETURN(int32_t n, Argument(field));
      transform = Transform::Bucket(n);
      suffix = "_bucket";
    } else if (name == "truncate") {
      FLOE_ASSIGN_OR_RETURN(int32_t w, Argument(field));
      transform = Transform::Truncate(w);
      suffix = "_trunc";
    } else if (name == "years" || name == "year") {
      transform = Transform::Year();
      suffix = "_year";
    } else if (name == "months" || name == "month") {
      transform = Transform::Month();
      suffix = "_month";
    } else if (name == "days" || name == "day") {
      transform = Transform::Day();
      suffix = "_day";
    } else if (name == "hours" || name == "hour") {
      transform = Transform::Hour();
      suffix = "_hour";
    } else {
      return InvalidArgument(
          "PARTITIONED BY: unknown transform '{}' (bucket, truncate, years, months, days, hours)",
          name);
    }
    if (!transform.CanTransform(*source->type)) {
      return InvalidArgument("PARTITIONED BY: {} cannot partition column '{}' of type {}",
                             transform.ToString(), field.column, source->type->ToString());
    }
    out.push_back(::floe::PartitionField{.source_ids = {source->id},
                                         .field_id = field_id++,
                                         .name = field.column + suffix,
                                         .transform = transform});
  }
  return PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(out));
}

}  // namespace floe::sql
