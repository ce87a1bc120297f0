#include "floe/table/scan/task_reader.h"

#include <algorithm>
#include <set>
#include <vector>

#include "floe/batch/filter.h"
#include "floe/table/scan/batch_filter.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/position_delete_index.h"
#include "floe/table/scan/schema_projection.h"

namespace floe::table {

namespace {

void CollectFieldIds(const expr::Expression& e, std::set<int32_t>& ids) {
  if (e.is_predicate()) {
    if (e.is_bound()) ids.insert(e.field_id());
    return;
  }
  if (e.left()) CollectFieldIds(*e.left(), ids);
  if (e.right()) CollectFieldIds(*e.right(), ids);
}

bool IsTrue(const expr::ExprPtr& e) { return e == nullptr || e->op() == expr::Op::kTrue; }

}  // namespace

class TaskReader::Stream final : public TaskBatchStream {
 public:
  Stream(TaskReader& owner, const FileScanTask& task) : owner_(owner), task_(task) {}
  ~Stream() override {
    if (!reader_) return;
    owner_.skip_metrics_.row_groups_skipped += reader_->row_groups_skipped();
    owner_.skip_metrics_.rows_skipped_by_page_index += reader_->rows_skipped_by_page_index();
  }

  Status Init() {
    const manifest::DataFile& file = *task_.data_file;
    std::set<int32_t> extra;
    if (!IsTrue(task_.residual)) CollectFieldIds(*task_.residual, extra);
    index_ = PositionDeleteIndex(file.record_count);
    for (const DataFilePtr& d : task_.deletes) {
      if (d->content == manifest::FileContent::kPositionDeletes) {
        const std::string& recorded =
            task_.recorded_path.empty() ? file.file_path : task_.recorded_path;
        FLOE_RETURN_IF_ERROR(owner_.positions_.AddTo(*d, recorded, index_));
      } else if (d->content == manifest::FileContent::kEqualityDeletes) {
        FLOE_ASSIGN_OR_RETURN(
            auto set, owner_.options_.equality_deletes->Get(
                          *owner_.io_, *d, owner_.table_schema_,
                          owner_.options_.name_mapping ? &*owner_.options_.name_mapping : nullptr));
        if (!set->MayMatch(file, *owner_.table_schema_)) continue;
        extra.insert(set->field_ids().begin(), set->field_ids().end());
        equality_.push_back(std::move(set));
      }
    }
    // Read the projected columns plus what deletes and the residual look at.
    const Schema& projected = *owner_.projected_;
    bool needs_more = false;
    for (int32_t id : extra) needs_more |= projected.FindField(id) == nullptr;
    if (needs_more) {
      std::vector<int32_t> ids = projected.all_field_ids();
      ids.insert(ids.end(), extra.begin(), extra.end());
      read_schema_ = owner_.table_schema_->Project(ids);
    } else {
      read_schema_ = owner_.projected_;
    }
    DataFileReadOptions options;
    options.batch_rows = owner_.options_.batch_rows;
    if (!task_.whole_file()) options.byte_range = std::make_pair(task_.start, task_.length);
    if (owner_.options_.name_mapping) options.name_mapping = &*owner_.options_.name_mapping;
    if (owner_.options_.push_down_filter && !IsTrue(task_.residual)) {
      options.filter = task_.residual;
      for (const auto& [id, count] : file.nan_value_counts) {
        if (count == 0) options.nan_free_field_ids.push_back(id);
      }
    }
    if (task_.spec) {
      const auto fields = task_.spec->fields();
      for (size_t i = 0; i < fields.size() && i < file.partition.size(); ++i) {
        if (fields[i].transform.is_identity()) {
          options.constants.emplace(fields[i].source_id(), file.partition[i]);
        }
      }
    }
    options.file_size = file.file_size_in_bytes;
    FLOE_ASSIGN_OR_RETURN(
        reader_, DataFileReader::Open(*owner_.io_, file.file_path, file.file_format, read_schema_,
                                      std::move(options)));
    return Ok();
  }

  Result<std::optional<RecordBatch>> Next() override {
    while (true) {
      FLOE_ASSIGN_OR_RETURN(auto next, reader_->Next());
      if (!next) return std::nullopt;
      const RecordBatch& batch = next->batch;
      const int64_t n = batch.num_rows();
      if (n == 0) continue;
      keep_.assign(static_cast<size_t>(n), 1);
      index_.ClearDeleted(next->first_position, n, keep_.data());
      for (const auto& set : equality_) {
        FLOE_RETURN_IF_ERROR_CTX(set->ClearDeleted(batch, *read_schema_, keep_.data()),
                                 task_.data_file->file_path);
      }
      if (!IsTrue(task_.residual)) {
        FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match,
                              EvaluateFilter(*task_.residual, batch, *read_schema_));
        for (int64_t i = 0; i < n; ++i) keep_[i] &= match[i];
      }
      FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterBatch(batch, keep_));
      if (kept.num_rows() == 0) continue;
      if (read_schema_ == owner_.projected_) return kept;
      FLOE_ASSIGN_OR_RETURN(RecordBatch out, Narrow(kept));
      return out;
    }
  }

 private:
  // The projected columns of a batch read with extra ones.
  Result<RecordBatch> Narrow(const RecordBatch& batch) const {
    std::vector<Array> columns;
    for (const NestedField& field : owner_.projected_->fields()) {
      const int index = batch.schema()->FindFieldIndexById(field.id);
      if (index < 0) return InternalError("column {} was not read", field.name);
      FLOE_ASSIGN_OR_RETURN(Array column,
                            ProjectArray(batch.column(index), batch.field(index), field));
      columns.push_back(std::move(column));
    }
    return RecordBatch::Make(owner_.output_schema_, std::move(columns), batch.num_rows());
  }

  TaskReader& owner_;
  FileScanTask task_;
  SchemaPtr read_schema_;
  std::unique_ptr<DataFileReader> reader_;
  PositionDeleteIndex index_;
  std::vector<std::shared_ptr<const EqualityDeleteSet>> equality_;
  std::vector<uint8_t> keep_;
};

TaskReader::TaskReader(std::shared_ptr<io::FileIO> io, SchemaPtr table_schema, SchemaPtr projected,
                       TaskReadOptions options)
    : io_(io),
      table_schema_(std::move(table_schema)),
      projected_(std::move(projected)),
      options_(std::move(options)),
      positions_(io) {
  if (!options_.equality_deletes) {
    options_.equality_deletes = std::make_shared<EqualityDeleteCache>();
  }
  auto fields = ToBatchFields(*projected_);
  output_schema_ =
      std::make_shared<BatchSchema>(fields ? std::move(*fields) : std::vector<Field>{});
}

TaskReader::~TaskReader() = default;

Result<std::unique_ptr<TaskBatchStream>> TaskReader::Open(const FileScanTask& task) {
  FLOE_RETURN_IF_ERROR(ToBatchFields(*projected_));
  if (!task.data_file) return InvalidArgument("a scan task without a data file");
  auto stream = std::make_unique<Stream>(*this, task);
  FLOE_RETURN_IF_ERROR(stream->Init());
  return stream;
}

Status TaskReader::Read(const FileScanTask& task, const std::function<Status(RecordBatch)>& sink) {
  FLOE_ASSIGN_OR_RETURN(auto stream, Open(task));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, stream->Next());
    if (!batch) return Ok();
    FLOE_RETURN_IF_ERROR(sink(std::move(*batch)));
  }
}

Status TaskReader::Read(const CombinedScanTask& group,
                        const std::function<Status(RecordBatch)>& sink) {
  Status status = Ok();
  for (const FileScanTask& task : group.tasks) {
    status = Read(task, sink);
    if (!status) break;
  }
  ClearDeleteCache();
  return status;
}

void TaskReader::ClearDeleteCache() { positions_.Clear(); }

}  // namespace floe::table
