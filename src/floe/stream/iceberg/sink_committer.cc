#include "floe/stream/iceberg/sink_committer.h"

#include <algorithm>
#include <charconv>
#include <chrono>

#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/stream/iceberg/committed_positions.h"
#include "floe/stream/metrics.h"
#include "floe/stream/source_offsets.h"
#include "floe/table/table.h"
#include "floe/table/update/merge_append.h"
#include "floe/table/update/replace_partitions.h"
#include "floe/table/update/row_delta.h"
#include "floe/util/clock.h"
#include "floe/util/json.h"
#include "floe/util/uuid.h"

namespace floe::stream {
namespace {

// A checkpoint id as the summary writes it, or nullopt when malformed.
std::optional<int64_t> ParseId(const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool HasRanges(const SourcePositions& positions) {
  return std::ranges::any_of(positions, [](const auto& entry) { return IsRanges(entry.second); });
}

// The source of a reader's position key "<source>.<subtask>".
std::string SourceOf(const std::string& key) { return key.substr(0, key.rfind('.')); }

}  // namespace

std::string DefaultSinkId(std::string_view job_name, std::string_view operator_name) {
  return fmt::format("{}/{}", job_name, operator_name);
}

IcebergSinkCommitter::IcebergSinkCommitter(SinkSpec spec) : spec_(std::move(spec)) {}
IcebergSinkCommitter::~IcebergSinkCommitter() = default;

std::optional<int64_t> IcebergSinkCommitter::MaxCommittedCheckpointId(const TableMetadata& metadata,
                                                                      std::string_view branch,
                                                                      std::string_view sink_id,
                                                                      std::string_view run_id) {
  const SnapshotRef* ref = metadata.FindRef(branch);
  if (ref == nullptr) return std::nullopt;
  // Commits of one run are in checkpoint order: the newest one of the run has the highest id.
  for (SnapshotPtr snapshot = metadata.SnapshotById(ref->snapshot_id); snapshot != nullptr;
       snapshot = snapshot->parent_snapshot_id
                      ? metadata.SnapshotById(*snapshot->parent_snapshot_id)
                      : nullptr) {
    const StringMap& summary = snapshot->summary;
    auto sink = summary.find(kSinkIdProperty);
    auto run = summary.find(kRunIdProperty);
    auto checkpoint = summary.find(kCheckpointIdProperty);
    if (sink == summary.end() || run == summary.end() || checkpoint == summary.end()) continue;
    if (sink->second != sink_id || run->second != run_id) continue;
    if (auto id = ParseId(checkpoint->second)) return id;
  }
  return std::nullopt;
}

Status IcebergSinkCommitter::Open(const OperatorContext& context) {
  if (context.parallelism != 1) {
    return InvalidArgument("iceberg sink committer {}: parallelism must be 1, not {}",
                           context.operator_name, context.parallelism);
  }
  name_ = context.operator_name;
  job_name_ = context.job_name;
  metrics_ = context.metrics;
  sink_id_ = spec_.sink_id.empty() ? DefaultSinkId(job_name_, name_) : spec_.sink_id;
  if (spec_.table) {
    table_ = spec_.table;
  } else {
    FLOE_ASSIGN_OR_RETURN(table_, spec_.loader.Load());
  }
  FLOE_ASSIGN_OR_RETURN(
      options_, SinkOptions::Resolve(*table_->metadata(), spec_.options, spec_.equality_columns));
  FLOE_RETURN_IF_ERROR(Restore(context.restored_state));
  run_id_ = RandomUuid();
  return Ok();
}

Status IcebergSinkCommitter::Restore(const std::vector<std::string>& entries) {
  if (entries.empty()) return Ok();
  struct Entry {
    std::string run_id;
    int64_t checkpoint_id;
    std::vector<manifest::ManifestFile> manifests;
    std::set<std::string> referenced;
    SourcePositions positions;
  };
  std::vector<Entry> restored;
  for (const std::string& text : entries) {
    auto json = Json::Parse(text);
    auto bad = [&](const Error& error) {
      return CorruptData("iceberg sink committer {}: state entry '{}': {}", name_,
                         text.substr(0, 200), error.message());
    };
    if (!json) return bad(json.error());
    auto sink = json->GetString("sink-id");
    if (!sink) return bad(sink.error());
    if (*sink != sink_id_) {
      return InvalidArgument(
          "iceberg sink committer {}: restored state of sink '{}', but this sink is '{}' (set the "
          "same SinkId as the job that wrote the checkpoint)",
          name_, *sink, sink_id_);
    }
    Entry entry;
    auto run = json->GetString("run-id");
    if (!run) return bad(run.error());
    entry.run_id = *run;
    auto id = json->GetInt("checkpoint-id");
    if (!id) return bad(id.error());
    entry.checkpoint_id = *id;
    auto manifests = json->GetArray("manifests");
    if (!manifests) return bad(manifests.error());
    for (const Json& m : **manifests) {
      manifest::ManifestFile file;
      auto path = m.GetString("path");
      auto length = m.GetInt("length");
      auto spec_id = m.GetInt("spec-id");
      auto deletes = m.GetBool("deletes");
      if (!path) return bad(path.error());
      if (!length) return bad(length.error());
      if (!spec_id) return bad(spec_id.error());
      if (!deletes) return bad(deletes.error());
      file.manifest_path = *path;
      file.manifest_length = *length;
      file.partition_spec_id = static_cast<int32_t>(*spec_id);
      file.content =
          *deletes ? manifest::ManifestContent::kDeletes : manifest::ManifestContent::kData;
      entry.manifests.push_back(std::move(file));
    }
    auto referenced = json->GetArray("referenced-data-files");
    if (!referenced) return bad(referenced.error());
    for (const Json& path : **referenced) {
      if (!path.is_string()) return bad(Error(ErrorKind::kCorruptData, "a path is not a string"));
      entry.referenced.insert(path.as_string());
    }
    // Absent in the state of versions before source positions.
    if (const Json* positions = json->Find("source-positions")) {
      if (!positions->is_object()) {
        return bad(Error(ErrorKind::kCorruptData, "source-positions is not an object"));
      }
      for (const auto& [key, value] : positions->as_object()) {
        if (!value.is_string()) {
          return bad(Error(ErrorKind::kCorruptData, "a source position is not a string"));
        }
        entry.positions[key] = value.as_string();
      }
    }
    restored.push_back(std::move(entry));
  }
  const TableMetadataPtr metadata = table_->metadata();
  std::map<std::string, std::optional<int64_t>> committed;  // by run id
  for (const Entry& entry : restored) {
    if (!committed.contains(entry.run_id)) {
      committed[entry.run_id] =
          MaxCommittedCheckpointId(*metadata, options_.branch, sink_id_, entry.run_id);
    }
    const std::optional<int64_t>& max = committed[entry.run_id];
    if (max && entry.checkpoint_id <= *max) continue;
    Pending& pending = pending_[entry.checkpoint_id];
    pending.run_id = entry.run_id;
    pending.source_positions = entry.positions;
    pending.referenced_data_files.insert(entry.referenced.begin(), entry.referenced.end());
    for (const manifest::ManifestFile& file : entry.manifests) {
      FLOE_ASSIGN_OR_RETURN(auto input, table_->io()->NewInputFile(file.manifest_path));
      auto reader = manifest::ManifestReader::Open(*input);
      if (!reader) {
        return CorruptData("iceberg sink committer {}: temporary manifest {} of checkpoint {}: {}",
                           name_, file.manifest_path, entry.checkpoint_id,
                           reader.error().message());
      }
      FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> entries, (*reader)->ReadAll());
      for (manifest::ManifestEntry& e : entries) {
        e.data_file.spec_id = file.partition_spec_id;
        auto& into = e.data_file.content == manifest::FileContent::kData ? pending.data_files
                                                                         : pending.delete_files;
        into.push_back(std::move(e.data_file));
      }
      pending.manifests.push_back(file);
    }
  }
  // The checkpoint restored from is complete: what it holds commits now, under its own run,
  // unless it is fenced (docs/scale-out.md): then another process committed its partitions'
  // offsets meanwhile, and it is dropped, the readers starting from the table's offsets.
  drop_fenced_ = true;
  Status outcome = CommitUpTo(std::numeric_limits<int64_t>::max());
  drop_fenced_ = false;
  return outcome;
}

Status IcebergSinkCommitter::ProcessBatch(int /*input*/, RecordBatch /*batch*/,
                                          Output& /*output*/) {
  return InvalidArgument("iceberg sink committer {}: takes the writers' files, not rows", name_);
}

Status IcebergSinkCommitter::ProcessMessage(int /*input*/, Message message, Output& /*output*/) {
  const auto* result = std::any_cast<SinkWriteResult>(&message.value);
  if (result == nullptr) {
    return InvalidArgument("iceberg sink committer {}: a message that is not a writer's files",
                           name_);
  }
  if (!result->files) return Ok();
  const table::WriteResult& files = *result->files;
  current_.data_files.insert(current_.data_files.end(), files.data_files.begin(),
                             files.data_files.end());
  current_.delete_files.insert(current_.delete_files.end(), files.delete_files.begin(),
                               files.delete_files.end());
  current_.referenced_data_files.insert(files.referenced_data_files.begin(),
                                        files.referenced_data_files.end());
  return Ok();
}

Status IcebergSinkCommitter::WriteManifests(int64_t checkpoint_id, Pending& pending) {
  const TableMetadataPtr metadata = table_->metadata();
  // One manifest per partition spec and content.
  std::map<std::pair<int32_t, bool>, std::vector<const manifest::DataFile*>> groups;
  for (const auto& file : pending.data_files) groups[{file.spec_id, false}].push_back(&file);
  for (const auto& file : pending.delete_files) groups[{file.spec_id, true}].push_back(&file);
  int count = 0;
  for (const auto& [key, files] : groups) {
    const auto [spec_id, deletes] = key;
    PartitionSpecPtr spec = metadata->SpecById(spec_id);
    if (spec == nullptr) {
      return InvalidArgument("iceberg sink committer {}: partition spec {} is not in table {}",
                             name_, spec_id, spec_.loader.ToString());
    }
    const std::string path =
        fmt::format("{}/floe-sink-{}-{}-{:05d}.avro", table_->metadata_folder(), pending.run_id,
                    checkpoint_id, ++count);
    std::string bytes;
    manifest::ByteSink sink = [&bytes](std::span<const std::byte> data) -> Status {
      bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
      return Ok();
    };
    FLOE_ASSIGN_OR_RETURN(auto writer,
                          manifest::ManifestWriter::Open(
                              sink, path, *metadata->current_schema(), *spec,
                              manifest::ManifestWriterOptions{
                                  .format_version = std::max(2, metadata->format_version()),
                                  .content = deletes ? manifest::ManifestContent::kDeletes
                                                     : manifest::ManifestContent::kData}));
    for (const manifest::DataFile* file : files) {
      FLOE_RETURN_IF_ERROR(writer->Add(manifest::ManifestEntry{.data_file = *file}));
    }
    FLOE_ASSIGN_OR_RETURN(manifest::ManifestFile written, writer->Close());
    FLOE_RETURN_IF_ERROR(table_->io()->WriteFileAtomically(path, bytes, /*overwrite=*/false));
    written.manifest_length = static_cast<int64_t>(bytes.size());
    pending.manifests.push_back(std::move(written));
  }
  return Ok();
}

void IcebergSinkCommitter::TakeCurrent(int64_t checkpoint_id,
                                       const std::shared_ptr<const SourcePositions>& positions) {
  Pending& pending = pending_[checkpoint_id];
  pending.run_id = run_id_;
  if (positions) pending.source_positions = *positions;
  pending.data_files = std::move(current_.data_files);
  pending.delete_files = std::move(current_.delete_files);
  pending.referenced_data_files = std::move(current_.referenced_data_files);
  current_ = Pending{};
}

Result<std::vector<std::string>> IcebergSinkCommitter::SnapshotState(int64_t checkpoint_id,
                                                                     Output& output) {
  return SnapshotCheckpoint(CheckpointBarrier{.checkpoint_id = checkpoint_id}, output);
}

Result<std::vector<std::string>> IcebergSinkCommitter::SnapshotCheckpoint(
    const CheckpointBarrier& barrier, Output& /*output*/) {
  TakeCurrent(barrier.checkpoint_id, barrier.positions);
  std::vector<std::string> entries;
  for (auto& [id, p] : pending_) {
    if (p.empty()) continue;
    if (p.manifests.empty()) FLOE_RETURN_IF_ERROR(WriteManifests(id, p));
    Json manifests = Json::MakeArray();
    for (const manifest::ManifestFile& m : p.manifests) {
      Json one = Json::MakeObject();
      one.Set("path", m.manifest_path);
      one.Set("length", m.manifest_length);
      one.Set("spec-id", m.partition_spec_id);
      one.Set("deletes", m.content == manifest::ManifestContent::kDeletes);
      manifests.as_array().push_back(std::move(one));
    }
    Json referenced = Json::MakeArray();
    for (const std::string& path : p.referenced_data_files) referenced.as_array().push_back(path);
    Json entry = Json::MakeObject();
    entry.Set("sink-id", sink_id_);
    entry.Set("run-id", p.run_id);
    entry.Set("checkpoint-id", id);
    entry.Set("manifests", std::move(manifests));
    entry.Set("referenced-data-files", std::move(referenced));
    if (!p.source_positions.empty()) {
      Json positions = Json::MakeObject();
      for (const auto& [key, value] : p.source_positions) positions.Set(key, value);
      entry.Set("source-positions", std::move(positions));
    }
    entries.push_back(entry.Dump());
  }
  return entries;
}

Status IcebergSinkCommitter::NotifyCheckpointComplete(int64_t checkpoint_id) {
  return CommitUpTo(checkpoint_id);
}

Status IcebergSinkCommitter::Finish(Output& output) { return FinishInput(EndOfInput{}, output); }

Status IcebergSinkCommitter::FinishInput(const EndOfInput& end, Output& /*output*/) {
  // No state is taken of the end of the input, so its files need no temporary manifests: they
  // commit now, with what earlier checkpoints left pending.
  TakeCurrent(kEndOfInputCheckpointId, end.positions);
  return CommitUpTo(kEndOfInputCheckpointId);
}

Status IcebergSinkCommitter::CommitUpTo(int64_t checkpoint_id) {
  if (spec_.commit_pending_together) return CommitTogether(checkpoint_id);
  while (!pending_.empty() && pending_.begin()->first <= checkpoint_id) {
    auto it = pending_.begin();
    if (it->second.empty() && !HasRanges(it->second.source_positions)) {
      // Every max-th empty checkpoint in a row still commits, recording the sink's progress.
      if (++continuous_empty_ % options_.max_continuous_empty_commits == 0) {
        FLOE_RETURN_IF_ERROR(Commit(it->first, it->second));
      }
    } else {
      FLOE_RETURN_IF_ERROR(Commit(it->first, it->second));
    }
    pending_.erase(it);
  }
  return Ok();
}

Status IcebergSinkCommitter::CommitTogether(int64_t checkpoint_id) {
  // One snapshot tagged with the highest checkpoint: a restore skips every checkpoint at or below
  // it, so the merged checkpoints stay exactly once. Checkpoints of different runs (only right
  // after a restore) commit separately, since their ids are not comparable. A checkpoint with
  // delete files starts a new snapshot: an equality delete applies only to data files of earlier
  // sequence numbers, so merged into one snapshot with the rows it replaces (an upsert of a key
  // written at an earlier checkpoint) it would leave both rows live.
  struct Group {
    int64_t last = 0;
    Pending merged;
  };
  std::map<std::string, std::vector<Group>> by_run;
  while (!pending_.empty() && pending_.begin()->first <= checkpoint_id) {
    auto it = pending_.begin();
    const std::string run_id = it->second.run_id.empty() ? run_id_ : it->second.run_id;
    std::vector<Group>& groups = by_run[run_id];
    if (groups.empty() || (!it->second.delete_files.empty() && !groups.back().merged.empty())) {
      groups.emplace_back();
    }
    auto& [last, merged] = groups.back();
    last = it->first;
    merged.run_id = run_id;
    std::move(it->second.data_files.begin(), it->second.data_files.end(),
              std::back_inserter(merged.data_files));
    std::move(it->second.delete_files.begin(), it->second.delete_files.end(),
              std::back_inserter(merged.delete_files));
    merged.referenced_data_files.merge(it->second.referenced_data_files);
    std::move(it->second.manifests.begin(), it->second.manifests.end(),
              std::back_inserter(merged.manifests));
    // The snapshot is tagged with the last checkpoint: so are its positions, but offset ranges
    // add up over the checkpoints.
    for (auto& [key, value] : it->second.source_positions) {
      auto earlier = merged.source_positions.find(key);
      if (IsRanges(value) && earlier != merged.source_positions.end() &&
          IsRanges(earlier->second)) {
        FLOE_ASSIGN_OR_RETURN(OffsetRanges ranges, ParseRanges(earlier->second));
        FLOE_ASSIGN_OR_RETURN(OffsetRanges later, ParseRanges(value));
        FLOE_RETURN_IF_ERROR(ChainRanges(ranges, later, SourceOf(key)));
        earlier->second = EncodeRanges(ranges);
      } else {
        merged.source_positions[key] = std::move(value);
      }
    }
    pending_.erase(it);
  }
  for (auto& [run_id, groups] : by_run) {
    for (auto& [last, merged] : groups) {
      if (merged.empty() && !HasRanges(merged.source_positions) &&
          ++continuous_empty_ % options_.max_continuous_empty_commits != 0) {
        continue;
      }
      FLOE_RETURN_IF_ERROR(Commit(last, merged));
    }
  }
  return Ok();
}

std::vector<SnapshotPtr> IcebergSinkCommitter::TakeCommitted() {
  return std::exchange(committed_, {});
}

Status IcebergSinkCommitter::Commit(int64_t checkpoint_id, Pending& pending) {
  const auto start = std::chrono::steady_clock::now();
  const std::string run_id = pending.run_id.empty() ? run_id_ : pending.run_id;
  // The offset ranges of sources whose partitions move between processes, by source: merged into
  // the table's offsets map at each attempt, fenced (source_offsets.h).
  std::map<std::string, OffsetRanges> ranges;
  fenced_ = false;
  for (const auto& [key, value] : pending.source_positions) {
    if (!IsRanges(value)) continue;
    FLOE_ASSIGN_OR_RETURN(OffsetRanges of_reader, ParseRanges(value));
    Status chained = ChainRanges(ranges[SourceOf(key)], of_reader, SourceOf(key));
    if (!chained) {
      fenced_ = true;
      return Fenced(checkpoint_id, pending, chained);
    }
  }
  if (!ranges.empty()) {
    // Fencing compares with the table's latest offsets, not with those this process saw last.
    FLOE_RETURN_IF_ERROR(table_->Refresh());
  }
  auto merge = [this, ranges](const TableMetadata& base,
                              const Snapshot* parent) -> Result<StringMap> {
    StringMap properties;
    for (const auto& [source, of_source] : ranges) {
      NamedOffsets committed;
      if (std::optional<std::string> text = CommittedOffsetsFrom(base, parent, source)) {
        FLOE_ASSIGN_OR_RETURN(committed, ParseOffsets(*text));
      }
      Status applied = ApplyRanges(committed, of_source, source);
      if (!applied) {
        fenced_ = true;
        return std::unexpected(applied.error());
      }
      properties[fmt::format("{}{}", kSourceOffsetsPrefix, source)] = EncodeOffsets(committed);
    }
    return properties;
  };
  auto tag = [&](table::SnapshotProducer& producer) {
    producer.ToBranch(options_.branch)
        .SetSummaryProperty(std::string(kSinkIdProperty), sink_id_)
        .SetSummaryProperty(std::string(kRunIdProperty), run_id)
        .SetSummaryProperty(std::string(kCheckpointIdProperty), std::to_string(checkpoint_id))
        .SetSummaryProperty(std::string(kJobNameProperty), job_name_);
    for (const auto& [key, value] : pending.source_positions) {
      if (IsRanges(value)) continue;
      producer.SetSummaryProperty(fmt::format("{}{}", kSourcePositionPrefix, key), value);
    }
    if (!ranges.empty()) producer.SetSummaryFromBase(merge);
  };
  Status committed;
  if (!pending.delete_files.empty()) {
    if (options_.overwrite) {
      return InvalidArgument(
          "iceberg sink committer {}: checkpoint {} has delete files, which an overwrite cannot "
          "commit",
          name_, checkpoint_id);
    }
    auto delta = table_->NewRowDelta();
    for (const auto& file : pending.data_files) delta->AddRows(file);
    for (const auto& file : pending.delete_files) delta->AddDeletes(file);
    delta->ValidateDataFilesExist(pending.referenced_data_files);
    tag(*delta);
    committed = delta->Commit();
  } else if (options_.overwrite && !pending.data_files.empty()) {
    auto replace = table_->NewReplacePartitions();
    for (const auto& file : pending.data_files) replace->AddFile(file);
    tag(*replace);
    committed = replace->Commit();
  } else {
    auto append = table_->NewMergeAppend();
    for (const auto& file : pending.data_files) append->AppendFile(file);
    tag(*append);
    committed = append->Commit();
  }
  if (!committed) return fenced_ ? Fenced(checkpoint_id, pending, committed) : committed;
  continuous_empty_ = 0;
  {
    const TableMetadataPtr metadata = table_->metadata();
    const SnapshotRef* ref = metadata->FindRef(options_.branch);
    if (ref != nullptr) {
      if (SnapshotPtr snapshot = metadata->SnapshotById(ref->snapshot_id)) {
        committed_.push_back(std::move(snapshot));
      }
    }
  }
  // The temporary manifests served their purpose once the commit is known to have succeeded.
  for (const manifest::ManifestFile& m : pending.manifests) {
    (void)table_->io()->Delete(m.manifest_path);
  }
  if (metrics_ != nullptr) {
    auto add = [&](std::string_view metric, int64_t value) {
      metrics_->Add(fmt::format("{}.{}", name_, metric), value);
    };
    auto set = [&](std::string_view metric, int64_t value) {
      metrics_->Set(fmt::format("{}.{}", name_, metric), value);
    };
    int64_t records = 0, bytes = 0, delete_records = 0, delete_bytes = 0;
    for (const auto& f : pending.data_files)
      records += f.record_count, bytes += f.file_size_in_bytes;
    for (const auto& f : pending.delete_files) {
      delete_records += f.record_count;
      delete_bytes += f.file_size_in_bytes;
    }
    add("committedDataFilesCount", static_cast<int64_t>(pending.data_files.size()));
    add("committedDataFilesRecordCount", records);
    add("committedDataFilesByteCount", bytes);
    add("committedDeleteFilesCount", static_cast<int64_t>(pending.delete_files.size()));
    add("committedDeleteFilesRecordCount", delete_records);
    add("committedDeleteFilesByteCount", delete_bytes);
    set("lastCommitDurationMs", std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - start)
                                    .count());
    set("lastSuccessfulCommitTimestampMs", NowMs());
    set("lastCommittedCheckpointId", checkpoint_id);
  }
  return Ok();
}

Status IcebergSinkCommitter::Fenced(int64_t checkpoint_id, Pending& pending, const Status& error) {
  if (!drop_fenced_) {
    return std::unexpected(Error(
        ErrorKind::kCommitFailed,
        fmt::format("iceberg sink committer {}: checkpoint {} not committed: {}; the job restarts "
                    "from the table's offsets (docs/scale-out.md)",
                    name_, checkpoint_id, error.error().message())));
  }
  for (const manifest::ManifestFile& m : pending.manifests) {
    (void)table_->io()->Delete(m.manifest_path);
  }
  if (metrics_ != nullptr) metrics_->Add(fmt::format("{}.fencedCommits", name_), 1);
  return Ok();
}

}  // namespace floe::stream
