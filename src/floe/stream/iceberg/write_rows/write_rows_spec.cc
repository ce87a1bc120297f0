#include "floe/stream/iceberg/write_rows/write_rows_spec.h"

#include <set>

namespace floe::stream {

Status FieldFilter::Validate() const {
  const int set = (keep.empty() ? 0 : 1) + (drop.empty() ? 0 : 1) + (only.empty() ? 0 : 1);
  if (set > 1) return InvalidArgument("write rows: set at most one of keep, drop and only");
  return Ok();
}

Result<RecordBatch> FieldFilter::Apply(const RecordBatch& rows) const {
  if (empty()) return rows;
  const BatchSchema& schema = *rows.schema();
  std::vector<int> indices;
  if (!keep.empty()) {
    for (const std::string& name : keep) {
      const int index = schema.FindFieldIndex(name);
      if (index < 0) {
        return InvalidArgument("write rows: keep names '{}', which the rows ({}) do not have", name,
                               schema.ToString());
      }
      indices.push_back(index);
    }
    return rows.SelectColumns(indices);
  }
  if (!drop.empty()) {
    std::set<std::string, std::less<>> dropped(drop.begin(), drop.end());
    for (const std::string& name : drop) {
      if (schema.FindFieldIndex(name) < 0) {
        return InvalidArgument("write rows: drop names '{}', which the rows ({}) do not have", name,
                               schema.ToString());
      }
    }
    for (int i = 0; i < schema.num_fields(); ++i) {
      if (!dropped.contains(schema.field(i).name)) indices.push_back(i);
    }
    return rows.SelectColumns(indices);
  }
  const int index = schema.FindFieldIndex(only);
  if (index < 0 || rows.column(index).kind() != TypeKind::kStruct) {
    return InvalidArgument(
        "write rows: only names '{}', which is not a struct field of the rows ({})", only,
        schema.ToString());
  }
  const Array& record = rows.column(index);
  std::vector<Array> columns;
  for (int i = 0; i < record.num_children(); ++i) columns.push_back(record.field(i));
  auto fields = std::make_shared<const BatchSchema>(record.type()->fields());
  std::optional<Buffer> kinds;
  if (rows.has_row_kinds()) kinds = Buffer::CopyOf(rows.row_kinds().data(), rows.num_rows());
  return RecordBatch::Make(std::move(fields), std::move(columns), rows.num_rows(),
                           std::move(kinds));
}

SinkSpec TableSinkSpec(const WriteRowsSpec& spec, const catalog::TableIdentifier& table,
                       const std::string& branch, const std::vector<std::string>& equality_fields,
                       bool upsert) {
  SinkSpec sink{
      .loader = TableLoader::FromCatalog(spec.catalog_name, spec.catalog_properties, table),
      .options = spec.options,
      .equality_columns = equality_fields,
      .sink_id = spec.sink_id};
  sink.options["branch"] = branch;
  if (upsert) sink.options["upsert-enabled"] = "true";
  // WriteRows routes rows itself; the per-table writers must not resolve a shuffle of their own.
  sink.options.erase("distribution-mode");
  sink.options.erase("write-parallelism");
  sink.commit_pending_together = true;
  return sink;
}

}  // namespace floe::stream
