#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include "floe/expr/evaluator.h"
#include "floe/expr/manifest_evaluator.h"
#include "floe/expr/metrics_evaluator.h"
#include "floe/expr/residual_evaluator.h"
#include "floe/format/avro/schema_cache.h"
#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/partition_spec.h"
#include "floe/table/scan/delete_file_index.h"
#include "floe/table/scan/manifest_group_internal.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

using manifest::DataFile;
using manifest::EntryStatus;
using manifest::FileContent;
using manifest::ManifestContent;
using manifest::ManifestEntry;
using manifest::ManifestFile;

template <typename T>
Result<T> WithContext(Result<T> result, const std::string& context) {
  if (!result) result.error().AddContext(context);
  return result;
}

// What planning needs per partition spec, built once before the parallel part.
struct SpecPlan {
  PartitionSpecPtr spec;
  std::optional<expr::ManifestEvaluator> manifest_evaluator;  // when filtering
  std::optional<expr::ResidualEvaluator> residuals;           // when filtering
  std::vector<int32_t> partition_ids;                         // partition field id per position
};

void CollectFieldIds(const expr::Expression& e, std::vector<int32_t>& ids) {
  if (e.is_predicate()) {
    if (std::find(ids.begin(), ids.end(), e.field_id()) == ids.end()) ids.push_back(e.field_id());
    return;
  }
  if (e.left()) CollectFieldIds(*e.left(), ids);
  if (e.right()) CollectFieldIds(*e.right(), ids);
}

class Planner {
 public:
  explicit Planner(const ManifestGroupOptions& options) : options_(options) {
    filtering_ = options.filter && options.filter->op() != expr::Op::kTrue;
    if (filtering_) {
      CollectFieldIds(*options.filter, metric_ids_);
      metrics_.emplace(options.filter);
    }
  }

  Status Run(const std::vector<ManifestFile>& manifests,
             const std::function<Status(FileScanTask)>& sink) {
    if (options_.filter && options_.filter->op() == expr::Op::kFalse) return Ok();
    std::vector<const ManifestFile*> data;
    std::vector<const ManifestFile*> deletes;
    for (const ManifestFile& m : manifests) {
      FLOE_RETURN_IF_ERROR(PrepareSpec(m.partition_spec_id, m.manifest_path));
      if (options_.added_by && !options_.added_by->contains(m.added_snapshot_id)) continue;
      FLOE_ASSIGN_OR_RETURN(bool keep, KeepManifest(m));
      if (!keep) continue;
      (m.content == ManifestContent::kData ? data : deletes).push_back(&m);
    }
    if (!options_.added_by) FLOE_RETURN_IF_ERROR(IndexDeletes(deletes));

    // Windows of manifests bound the tasks held at once while keeping every worker busy; each
    // window's results go to the sink in manifest order.
    size_t workers = options_.pool ? options_.pool->workers() + 1 : 1;
    // On one thread a manifest's tasks go to the sink at once, so that the memory they free
    // serves the next manifest.
    size_t window = workers == 1 ? 1 : std::max<size_t>(16, 4 * workers);
    for (size_t begin = 0; begin < data.size(); begin += window) {
      size_t n = std::min(window, data.size() - begin);
      std::vector<Result<std::vector<FileScanTask>>> results(n);
      ForEach(n, [&](size_t i) { results[i] = PlanDataManifest(*data[begin + i]); });
      for (auto& result : results) {
        if (!result) return std::unexpected(std::move(result).error());
        for (FileScanTask& task : *result) FLOE_RETURN_IF_ERROR(sink(std::move(task)));
      }
    }
    return Ok();
  }

 private:
  void ForEach(size_t n, const std::function<void(size_t)>& body) {
    if (options_.pool) {
      options_.pool->ParallelFor(n, body);
    } else {
      for (size_t i = 0; i < n; ++i) body(i);
    }
  }

  Status PrepareSpec(int32_t spec_id, const std::string& manifest_path) {
    if (specs_.contains(spec_id)) return Ok();
    PartitionSpecPtr spec = options_.metadata->SpecById(spec_id);
    if (!spec) {
      return CorruptData("manifest {} names partition spec {}, which the table does not have",
                         manifest_path, spec_id);
    }
    SpecPlan plan;
    plan.spec = spec;
    for (const PartitionField& field : spec->fields()) plan.partition_ids.push_back(field.field_id);
    if (filtering_) {
      FLOE_ASSIGN_OR_RETURN(
          auto evaluator,
          WithContext(expr::ManifestEvaluator::Make(options_.filter, *options_.schema, *spec),
                      fmt::format("partition spec {}", spec_id)));
      plan.manifest_evaluator.emplace(std::move(evaluator));
      plan.residuals.emplace(expr::ResidualEvaluator::Make(options_.filter, *spec));
    }
    specs_.emplace(spec_id, std::move(plan));
    return Ok();
  }

  Result<bool> KeepManifest(const ManifestFile& m) const {
    if (m.added_files_count && m.existing_files_count && *m.added_files_count == 0 &&
        *m.existing_files_count == 0) {
      return false;
    }
    const SpecPlan& plan = specs_.at(m.partition_spec_id);
    if (!plan.manifest_evaluator || !m.partitions) return true;
    std::vector<expr::PartitionFieldSummary> summaries;
    summaries.reserve(m.partitions->size());
    for (const manifest::FieldSummary& s : *m.partitions) {
      summaries.push_back({s.contains_null, s.contains_nan, s.lower_bound, s.upper_bound});
    }
    return WithContext(plan.manifest_evaluator->MightMatch(summaries),
                       "pruning manifest " + m.manifest_path);
  }

  // Whether the entry's partition may hold matching rows.
  Result<bool> PartitionMatches(const SpecPlan& plan, const DataFile& file) const {
    if (!plan.manifest_evaluator) return true;
    if (file.partition.size() != plan.partition_ids.size()) {
      return CorruptData("{} has {} partition values, but its spec {} has {} fields",
                         file.file_path, file.partition.size(), plan.spec->spec_id(),
                         plan.partition_ids.size());
    }
    const auto& ids = plan.partition_ids;
    return expr::Evaluate(*plan.manifest_evaluator->partition_filter(),
                          [&](int32_t id) -> const Literal* {
                            for (size_t i = 0; i < ids.size(); ++i) {
                              if (ids[i] == id) return &file.partition[i];
                            }
                            return nullptr;
                          });
  }

  // metrics is scratch space reused from file to file: its map nodes stay allocated, so testing
  // a file costs no allocation once the first file has filled them.
  Result<bool> MetricsMatch(const DataFile& file, expr::DataFileMetrics& metrics) const {
    if (!metrics_) return true;
    metrics.record_count = file.record_count;
    // Only the columns the filter reads: building every column's maps would cost more than the
    // evaluation itself.
    for (int32_t id : metric_ids_) {
      Copy(file.value_counts, id, metrics.value_counts);
      Copy(file.null_value_counts, id, metrics.null_value_counts);
      Copy(file.nan_value_counts, id, metrics.nan_value_counts);
      Copy(file.lower_bounds, id, metrics.lower_bounds);
      Copy(file.upper_bounds, id, metrics.upper_bounds);
    }
    return WithContext(metrics_->MightMatch(metrics), "metrics of " + file.file_path);
  }

  template <typename Value>
  static void Copy(const std::vector<std::pair<int32_t, Value>>& from, int32_t id,
                   std::unordered_map<int32_t, Value>& to) {
    if (const Value* v = manifest::Find(from, id)) {
      to[id] = *v;
    } else {
      to.erase(id);
    }
  }

  bool Live(const ManifestEntry& entry) const {
    if (entry.status == EntryStatus::kDeleted) return false;
    if (!options_.added_by) return true;
    return entry.status == EntryStatus::kAdded && entry.snapshot_id &&
           options_.added_by->contains(*entry.snapshot_id);
  }

  DataFilePtr Planned(DataFile&& file, int32_t spec_id) const {
    file.spec_id = spec_id;
    if (!options_.mapping.empty()) file.file_path = options_.mapping.Apply(file.file_path);
    return std::make_shared<const DataFile>(std::move(file));
  }

  Result<std::unique_ptr<manifest::ManifestReader>> Open(const ManifestFile& m,
                                                         manifest::ManifestScratch* scratch) const {
    FLOE_ASSIGN_OR_RETURN(auto input, options_.io->NewInputFile(m.manifest_path));
    return manifest::ManifestReader::Open(*input, &m, scratch);
  }

  // A scratch for reading manifests on this thread, from those other threads have returned.
  std::unique_ptr<manifest::ManifestScratch> TakeScratch() const {
    std::lock_guard lock(scratch_mutex_);
    if (scratch_.empty()) return std::make_unique<manifest::ManifestScratch>(&schemas_);
    auto scratch = std::move(scratch_.back());
    scratch_.pop_back();
    return scratch;
  }
  void ReturnScratch(std::unique_ptr<manifest::ManifestScratch> scratch) const {
    std::lock_guard lock(scratch_mutex_);
    scratch_.push_back(std::move(scratch));
  }

  // Runs read(m, scratch) with a scratch of this thread's; the reader read opens must be gone when
  // read returns.
  template <typename Read>
  auto WithScratch(const ManifestFile& m, Read read) const {
    auto scratch = TakeScratch();
    auto result = read(m, *scratch);
    ReturnScratch(std::move(scratch));
    return result;
  }

  Status IndexDeletes(const std::vector<const ManifestFile*>& manifests) {
    std::vector<Result<std::vector<DeleteFileIndex::Entry>>> results(manifests.size());
    ForEach(manifests.size(), [&](size_t i) {
      results[i] = WithContext(WithScratch(*manifests[i],
                                           [this](const ManifestFile& m, auto& scratch) {
                                             return ReadDeleteManifest(m, scratch);
                                           }),
                               "reading delete manifest " + manifests[i]->manifest_path);
    });
    for (auto& result : results) {
      if (!result) return std::unexpected(std::move(result).error());
      for (auto& entry : *result) deletes_.Add(std::move(entry));
    }
    deletes_.Build();
    return Ok();
  }

  Result<std::vector<DeleteFileIndex::Entry>> ReadDeleteManifest(
      const ManifestFile& m, manifest::ManifestScratch& scratch) const {
    const SpecPlan& plan = specs_.at(m.partition_spec_id);
    FLOE_ASSIGN_OR_RETURN(auto reader, Open(m, &scratch));
    std::vector<DeleteFileIndex::Entry> out;
    ManifestEntry entry;
    expr::DataFileMetrics metrics;
    for (;;) {
      FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(entry));
      if (!more) break;
      if (!Live(entry) || entry.data_file.content == FileContent::kData) continue;
      FLOE_ASSIGN_OR_RETURN(bool partition_ok, PartitionMatches(plan, entry.data_file));
      if (!partition_ok) continue;
      // Equality deletes carry metrics of the rows they delete, so the filter prunes them as it
      // prunes data files; position deletes' metrics describe positions, not rows.
      if (entry.data_file.content == FileContent::kEqualityDeletes) {
        FLOE_ASSIGN_OR_RETURN(bool metrics_ok, MetricsMatch(entry.data_file, metrics));
        if (!metrics_ok) continue;
      }
      DeleteFileIndex::Entry e;
      e.partition_key = PartitionKey(m.partition_spec_id, entry.data_file.partition);
      e.data_sequence_number = entry.sequence_number.value_or(0);
      e.global =
          entry.data_file.content == FileContent::kEqualityDeletes && plan.spec->is_unpartitioned();
      e.file = Planned(std::move(entry.data_file), m.partition_spec_id);
      out.push_back(std::move(e));
    }
    return out;
  }

  Result<std::vector<FileScanTask>> PlanDataManifest(const ManifestFile& m) const {
    return WithContext(
        WithScratch(m, [this](const ManifestFile& m,
                              auto& scratch) { return PlanDataManifestImpl(m, scratch); }),
        "planning manifest " + m.manifest_path);
  }

  // The data files of one manifest's tasks live in one vector of entries that the tasks share
  // (each holds an aliasing pointer to its file): a file costs no allocation of its own beyond
  // its strings and lists, and is decoded where it stays, in the place of the previous entry if
  // that one was pruned. The price is that a task keeps the files of its whole manifest alive.
  Result<std::vector<FileScanTask>> PlanDataManifestImpl(const ManifestFile& m,
                                                         manifest::ManifestScratch& scratch) const {
    const SpecPlan& plan = specs_.at(m.partition_spec_id);
    FLOE_ASSIGN_OR_RETURN(auto reader, Open(m, &scratch));
    // Tasks without statistics need those of the filter's columns only (none without a filter).
    if (!options_.include_column_stats) reader->SelectStats(metric_ids_);
    std::vector<FileScanTask> out;
    auto entries = std::make_shared<std::vector<ManifestEntry>>();
    if (!filtering_ && m.added_files_count && m.existing_files_count) {
      // Bounded by the bytes of the manifest, whatever its counts claim; one more for the slot
      // that finds the end.
      int64_t live = int64_t{*m.added_files_count} + *m.existing_files_count;
      auto n = static_cast<size_t>(std::clamp<int64_t>(live, 0, m.manifest_length));
      out.reserve(n);
      entries->reserve(n + 1);
    }
    expr::DataFileMetrics metrics;
    std::optional<std::vector<Literal>> last_partition;
    expr::ExprPtr last_residual = expr::True();
    for (;;) {
      // The entries before the last are planned; the last is decoded into.
      if (entries->size() == out.size()) entries->emplace_back();
      ManifestEntry& entry = entries->back();
      FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(entry));
      if (!more) break;
      if (!Live(entry) || entry.data_file.content != FileContent::kData) continue;
      DataFile& file = entry.data_file;
      FLOE_ASSIGN_OR_RETURN(bool partition_ok, PartitionMatches(plan, file));
      if (!partition_ok) continue;
      FLOE_ASSIGN_OR_RETURN(bool metrics_ok, MetricsMatch(file, metrics));
      if (!metrics_ok) continue;

      FileScanTask& task = out.emplace_back();
      task.data_sequence_number = entry.sequence_number.value_or(0);
      task.spec = plan.spec;
      // Files of one manifest often share a partition: reuse its residual.
      if (plan.residuals && (!last_partition || *last_partition != file.partition)) {
        FLOE_ASSIGN_OR_RETURN(last_residual, plan.residuals->ResidualFor(file.partition));
        last_partition = file.partition;
      }
      task.residual = last_residual;
      if (!deletes_.empty()) {
        std::string key = PartitionKey(m.partition_spec_id, file.partition);
        task.deletes = deletes_.ForDataFile(file.file_path, task.data_sequence_number, key);
      }
      if (!options_.mapping.empty()) {
        task.recorded_path = file.file_path;
        file.file_path = options_.mapping.Apply(file.file_path);
      }
      file.spec_id = m.partition_spec_id;
      task.start = 0;
      task.length = file.file_size_in_bytes;
      if (!options_.include_column_stats) {
        // Tasks leave the statistics out, as the reference implementation plans by default;
        // the NaN counts of the filter's columns stay, so the reader knows where > and >= on
        // floating-point columns may skip (parquet_predicates.h).
        file.column_sizes = {};
        file.value_counts = {};
        file.null_value_counts = {};
        file.lower_bounds = {};
        file.upper_bounds = {};
      }
    }
    entries->pop_back();  // the slot that found the end
    // Only now, when the vector no longer grows, can tasks point into it.
    for (size_t i = 0; i < out.size(); ++i) {
      out[i].data_file = DataFilePtr(entries, &(*entries)[i].data_file);
    }
    return out;
  }

  const ManifestGroupOptions& options_;
  bool filtering_ = false;
  std::vector<int32_t> metric_ids_;
  std::optional<expr::InclusiveMetricsEvaluator> metrics_;
  std::map<int32_t, SpecPlan> specs_;
  DeleteFileIndex deletes_;
  // Manifests of one table nearly always share their writer schema: it is parsed once.
  mutable avro::SchemaCache schemas_;
  mutable std::mutex scratch_mutex_;
  mutable std::vector<std::unique_ptr<manifest::ManifestScratch>> scratch_;
};

}  // namespace

Status PlanManifestGroup(const ManifestGroupOptions& options,
                         const std::vector<manifest::ManifestFile>& manifests,
                         const std::function<Status(FileScanTask)>& sink) {
  Planner planner(options);
  return planner.Run(manifests, sink);
}

}  // namespace floe::table
