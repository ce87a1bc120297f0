#include "floe/stream/checkpoint_storage.h"

#include <algorithm>
#include <charconv>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/stream/checkpoint_format_internal.h"
#include "floe/util/crc32.h"

namespace floe::stream {
namespace {

constexpr std::string_view kCheckpointPrefix = "chk-";
constexpr std::string_view kCompletionName = "_checkpoint";
constexpr std::string_view kStateName = "operators.state";

// The id of a "chk-<id>" folder name, or nullopt for any other name.
std::optional<int64_t> ParseCheckpointFolder(std::string_view name) {
  if (!name.starts_with(kCheckpointPrefix)) return std::nullopt;
  std::string_view digits = name.substr(kCheckpointPrefix.size());
  int64_t id = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || end != digits.data() + digits.size() || id <= 0) return std::nullopt;
  return id;
}

// Writes the state file and then the completion record of one checkpoint or savepoint folder.
Status WriteFolder(io::FileIO& io, const std::string& folder, const CompletedCheckpoint& checkpoint,
                   const std::string& job_name, bool savepoint) {
  std::string completion = io::JoinLocation(folder, kCompletionName);
  FLOE_ASSIGN_OR_RETURN(bool complete, io.Exists(completion));
  if (complete) return AlreadyExists("{} already holds a complete checkpoint", folder);
  FLOE_ASSIGN_OR_RETURN(std::string state, EncodeStateFile(checkpoint.operators));
  FLOE_RETURN_IF_ERROR(io.CreateDirectories(folder));

  // An earlier attempt at the same folder may have left a state file: it was never part of a
  // complete checkpoint, so it may be replaced.
  std::string state_location = io::JoinLocation(folder, kStateName);
  FLOE_ASSIGN_OR_RETURN(auto output, io.NewOutputFile(state_location));
  FLOE_ASSIGN_OR_RETURN(auto writer, output->CreateOrOverwrite());
  Status written = writer->Write(state);
  if (written) written = writer->Sync();
  if (written) {
    written = writer->Close();
  } else {
    (void)writer->Close();
  }
  FLOE_RETURN_IF_ERROR(written);
  // The state file's name and the folder's own name must be durable before the completion record
  // can be: a record that survives a crash must never point at nothing.
  FLOE_RETURN_IF_ERROR(io.SyncDirectory(folder));
  std::string parent = io::ParentLocation(folder);
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(io.SyncDirectory(parent));

  CompletionRecord record;
  record.checkpoint_id = checkpoint.checkpoint_id;
  record.timestamp_ms = checkpoint.timestamp_ms;
  record.savepoint = savepoint;
  record.job_name = job_name;
  record.state_files.push_back(
      {std::string(kStateName), static_cast<uint64_t>(state.size()), Crc32C(state)});
  return io.WriteFileAtomically(completion, EncodeCompletionRecord(record), /*overwrite=*/false);
}

// The completion record of a folder: kNotFound when it has none (the checkpoint is incomplete).
Result<CompletionRecord> ReadCompletion(io::FileIO& io, const std::string& folder) {
  std::string location = io::JoinLocation(folder, kCompletionName);
  auto bytes = io.ReadFile(location);
  if (!bytes) {
    if (bytes.error().kind() == ErrorKind::kNotFound) {
      return NotFound("{} is not a complete checkpoint: it has no {}", folder, kCompletionName);
    }
    return std::unexpected(std::move(bytes).error());
  }
  return DecodeCompletionRecord(*bytes, location);
}

Result<CompletedCheckpoint> ReadFolder(io::FileIO& io, const std::string& folder) {
  FLOE_ASSIGN_OR_RETURN(CompletionRecord record, ReadCompletion(io, folder));
  CompletedCheckpoint checkpoint;
  checkpoint.checkpoint_id = record.checkpoint_id;
  checkpoint.timestamp_ms = record.timestamp_ms;
  checkpoint.savepoint = record.savepoint;
  checkpoint.job_name = record.job_name;
  checkpoint.location = folder;
  for (const StateFileInfo& file : record.state_files) {
    std::string location = io::JoinLocation(folder, file.name);
    auto bytes = io.ReadFile(location);
    if (!bytes) {
      // The completion record promises the file: its absence is damage, not an incomplete state.
      if (bytes.error().kind() == ErrorKind::kNotFound) {
        return CorruptData("{}: offset 0: missing, though {} lists it", location, kCompletionName);
      }
      return std::unexpected(std::move(bytes).error());
    }
    if (bytes->size() != file.size) {
      return CorruptData("{}: offset {}: the file has {} bytes, its completion record says {}",
                         location, std::min<uint64_t>(bytes->size(), file.size), bytes->size(),
                         file.size);
    }
    FLOE_RETURN_IF_ERROR(DecodeStateFile(*bytes, location, checkpoint.operators));
    if (Crc32C(*bytes) != file.crc32c) {
      return CorruptData("{}: offset 0: the file's CRC-32C differs from its completion record's",
                         location);
    }
  }
  return checkpoint;
}

}  // namespace

struct CheckpointStorage::Impl {
  io::FileIO& io;
  std::string checkpoint_dir;
  std::string job_name;
  std::string job_folder;
  int retained;
  std::vector<Error> skipped;

  std::string Folder(int64_t id) const {
    return io::JoinLocation(job_folder, fmt::format("{}{}", kCheckpointPrefix, id));
  }

  // The ids of all checkpoint folders of the job, newest first.
  Result<std::vector<int64_t>> ListIds() {
    auto entries = io.List(job_folder);
    if (!entries) {
      if (entries.error().kind() == ErrorKind::kNotFound) return std::vector<int64_t>{};
      return std::unexpected(std::move(entries).error());
    }
    std::vector<int64_t> ids;
    for (const io::FileEntry& entry : *entries) {
      if (!entry.is_dir) continue;
      if (auto id = ParseCheckpointFolder(entry.name)) ids.push_back(*id);
    }
    std::sort(ids.rbegin(), ids.rend());
    return ids;
  }

  // Deletes complete checkpoints beyond the newest `retained` and incomplete ones older than the
  // newest complete one (leftovers of failed attempts). Savepoints are never deleted. The
  // completion record goes first, so that a deletion cut short leaves an incomplete checkpoint,
  // never a complete one with state missing. Errors are ignored: what is left is garbage that the
  // next checkpoint tries again to remove.
  void ApplyRetention() {
    auto ids = ListIds();
    if (!ids) return;
    int complete = 0;
    for (int64_t id : *ids) {
      std::string folder = Folder(id);
      auto record = ReadCompletion(io, folder);
      if (record && record->savepoint) continue;
      if (record && record->checkpoint_id == id && complete < retained) {
        ++complete;
        continue;
      }
      if (complete == 0) continue;  // incomplete, but newer than every complete one
      if (record) (void)io.Delete(io::JoinLocation(folder, kCompletionName));
      (void)io.DeleteRecursive(folder);
    }
  }
};

CheckpointStorage::CheckpointStorage(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CheckpointStorage::~CheckpointStorage() = default;

Result<std::unique_ptr<CheckpointStorage>> CheckpointStorage::Open(io::FileIO& io,
                                                                   std::string checkpoint_dir,
                                                                   std::string job_name,
                                                                   int retained) {
  if (checkpoint_dir.empty()) return InvalidArgument("checkpoints need a folder");
  if (job_name.empty() || job_name == "." || job_name == ".." ||
      job_name.find('/') != std::string::npos) {
    return InvalidArgument("job name '{}' cannot name a checkpoint folder", job_name);
  }
  if (retained < 1) return InvalidArgument("checkpoints retained must be at least 1: {}", retained);
  std::string job_folder = io::JoinLocation(checkpoint_dir, job_name);
  return std::unique_ptr<CheckpointStorage>(new CheckpointStorage(std::make_unique<Impl>(Impl{
      io, std::move(checkpoint_dir), std::move(job_name), std::move(job_folder), retained, {}})));
}

Status CheckpointStorage::Write(const CompletedCheckpoint& checkpoint) {
  if (checkpoint.checkpoint_id <= 0) {
    return InvalidArgument("checkpoint id {} is not positive", checkpoint.checkpoint_id);
  }
  std::string folder = impl_->Folder(checkpoint.checkpoint_id);
  Status written = WriteFolder(impl_->io, folder, checkpoint, impl_->job_name, false);
  if (!written) {
    return std::unexpected(std::move(
        written.error().AddContext(fmt::format("checkpoint {}", checkpoint.checkpoint_id))));
  }
  impl_->ApplyRetention();
  return Ok();
}

Result<std::string> CheckpointStorage::WriteSavepoint(const CompletedCheckpoint& checkpoint,
                                                      std::string folder) {
  if (folder.empty()) return InvalidArgument("a savepoint needs a folder");
  folder = io::NormalizeLocation(folder);
  Status written = WriteFolder(impl_->io, folder, checkpoint, impl_->job_name, true);
  if (!written) {
    return std::unexpected(
        std::move(written.error().AddContext(fmt::format("savepoint into {}", folder))));
  }
  return folder;
}

Result<std::optional<CompletedCheckpoint>> CheckpointStorage::LoadLatest() {
  impl_->skipped.clear();
  FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, impl_->ListIds());
  for (int64_t id : ids) {
    std::string folder = impl_->Folder(id);
    auto loaded = ReadFolder(impl_->io, folder);
    if (loaded && loaded->checkpoint_id != id) {
      loaded = CorruptData("{}: offset 0: holds checkpoint {}",
                           io::JoinLocation(folder, kCompletionName), loaded->checkpoint_id);
    }
    if (loaded) return std::optional<CompletedCheckpoint>(std::move(*loaded));
    if (loaded.error().kind() == ErrorKind::kNotFound) continue;  // never completed
    // Only damage is passed over; an I/O error or a format from a newer floe stops the restore,
    // since falling back would replay work the newer checkpoint already covers.
    if (loaded.error().kind() != ErrorKind::kCorruptData) return std::unexpected(loaded.error());
    impl_->skipped.push_back(std::move(loaded).error());
  }
  if (!impl_->skipped.empty()) {
    std::string reasons;
    for (const Error& error : impl_->skipped) reasons += "; " + error.message();
    return CorruptData("job {} has no intact checkpoint in {}{}", impl_->job_name,
                       impl_->job_folder, reasons);
  }
  return std::optional<CompletedCheckpoint>();
}

Result<CompletedCheckpoint> CheckpointStorage::Load(const std::string& location) {
  std::string folder = io::NormalizeLocation(location);
  if (io::FileName(folder) == kCompletionName) folder = io::ParentLocation(folder);
  return ReadFolder(impl_->io, folder);
}

Result<int64_t> CheckpointStorage::NextCheckpointId() {
  // Retention only deletes folders older than the newest complete checkpoint, and incomplete
  // folders newer than it stay, so the highest folder present is the highest id ever written.
  FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, impl_->ListIds());
  return ids.empty() ? int64_t{1} : ids.front() + 1;
}

const std::vector<Error>& CheckpointStorage::skipped() const { return impl_->skipped; }

}  // namespace floe::stream
