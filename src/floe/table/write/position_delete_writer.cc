#include "floe/table/write/position_delete_writer.h"

#include <algorithm>
#include <numeric>

#include "floe/batch/builder.h"

namespace floe::table {
namespace {

constexpr int64_t kBatchRows = 65536;

}  // namespace

const SchemaPtr& PositionDeleteSchema() {
  static const SchemaPtr schema = std::make_shared<const Schema>(std::vector<NestedField>{
      types::Required(kDeleteFilePathFieldId, "file_path", types::String()),
      types::Required(kDeletePosFieldId, "pos", types::Long()),
  });
  return schema;
}

const BatchSchemaPtr& PositionDeleteBatchSchema() {
  static const BatchSchemaPtr schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"file_path", DataType::String(), false, kDeleteFilePathFieldId},
      Field{"pos", DataType::Int64(), false, kDeletePosFieldId},
  });
  return schema;
}

PositionDeleteWriter::PositionDeleteWriter(RollingFileWriterOptions options)
    : options_(std::move(options)) {
  options_.appender.schema = PositionDeleteSchema();
  options_.appender.batch_schema = PositionDeleteBatchSchema();
  options_.appender.metrics = options_.appender.metrics.ForPositionDeletes();
  options_.file_template.content = manifest::FileContent::kPositionDeletes;
  options_.file_template.sort_order_id.reset();
  options_.file_template.equality_ids.clear();
}

void PositionDeleteWriter::Delete(std::string_view path, int64_t pos) {
  auto [it, inserted] =
      path_index_.try_emplace(std::string(path), static_cast<uint32_t>(paths_.size()));
  if (inserted) paths_.emplace_back(path);
  entries_.push_back({it->second, pos});
}

Result<std::vector<manifest::DataFile>> PositionDeleteWriter::Close() {
  // Rank paths by their bytes so that entries sort by (path, pos) comparing integers only.
  std::vector<uint32_t> order(paths_.size());
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return paths_[a] < paths_[b]; });
  std::vector<uint32_t> rank(paths_.size());
  for (uint32_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  for (Entry& e : entries_) e.path = rank[e.path];
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.path != b.path ? a.path < b.path : a.pos < b.pos;
  });
  entries_.erase(std::unique(entries_.begin(), entries_.end(),
                             [](const Entry& a, const Entry& b) {
                               return a.path == b.path && a.pos == b.pos;
                             }),
                 entries_.end());

  RollingFileWriter files(options_);
  // Which paths each written file holds, to set referenced_data_file.
  std::vector<std::pair<uint32_t, uint32_t>> file_paths;  // first and last path rank per file
  size_t next = 0;
  while (next < entries_.size()) {
    FLOE_ASSIGN_OR_RETURN(auto position, files.NextPosition());
    if (position.row == 0) file_paths.push_back({entries_[next].path, entries_[next].path});
    const size_t end = std::min(entries_.size(), next + static_cast<size_t>(kBatchRows));
    StringBuilder path_builder(DataType::String());
    Int64Builder pos_builder;
    pos_builder.Reserve(static_cast<int64_t>(end - next));
    for (size_t i = next; i < end; ++i) {
      path_builder.Append(paths_[order[entries_[i].path]]);
      pos_builder.UnsafeAppend(entries_[i].pos);
    }
    file_paths.back().second = entries_[end - 1].path;
    FLOE_ASSIGN_OR_RETURN(Array path_array, path_builder.Finish());
    FLOE_ASSIGN_OR_RETURN(Array pos_array, pos_builder.Finish());
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                          RecordBatch::Make(PositionDeleteBatchSchema(),
                                            {std::move(path_array), std::move(pos_array)}));
    FLOE_RETURN_IF_ERROR(files.WriteToCurrent(batch));
    next = end;
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::DataFile> written, files.Close());
  for (size_t f = 0; f < written.size() && f < file_paths.size(); ++f) {
    if (file_paths[f].first == file_paths[f].second) {
      written[f].referenced_data_file = paths_[order[file_paths[f].first]];
    }
  }
  entries_.clear();
  paths_.clear();
  path_index_.clear();
  return written;
}

}  // namespace floe::table
