#include "floe/io/fault_injecting_file_io.h"

#include <array>
#include <mutex>
#include <vector>

namespace floe::io {

std::string_view FileOpName(FileOp op) {
  switch (op) {
    case FileOp::kOpen:
      return "open";
    case FileOp::kRead:
      return "read";
    case FileOp::kCreate:
      return "create";
    case FileOp::kWrite:
      return "write";
    case FileOp::kSync:
      return "sync";
    case FileOp::kClose:
      return "close";
    case FileOp::kGetInfo:
      return "get info";
    case FileOp::kDelete:
      return "delete";
    case FileOp::kList:
      return "list";
    case FileOp::kCreateDirectories:
      return "create folders";
    case FileOp::kRename:
      return "rename";
    case FileOp::kSyncDirectory:
      return "sync folder";
  }
  return "unknown operation";
}

class FaultInjectingFileIO::Injector {
 public:
  // Counts an operation on location and decides whether it may run.
  // *torn is set when a kCrashTornWrite fault fired, for the caller to tear the write.
  Status Check(FileOp op, std::string_view location, bool* torn = nullptr) {
    std::lock_guard lock(mu_);
    int64_t number = ++counts_[static_cast<size_t>(op)];
    if (crashed_) return RefusedAfterCrash(op, location);
    for (auto it = armed_.begin(); it != armed_.end(); ++it) {
      if (it->op != op) continue;
      if (!it->location_contains.empty() &&
          location.find(it->location_contains) == std::string_view::npos) {
        continue;
      }
      if (--it->nth > 0) continue;
      FaultAction action = it->action;
      armed_.erase(it);
      ++fired_;
      if (action != FaultAction::kFail) {
        crashed_ = true;
        if (torn != nullptr) *torn = action == FaultAction::kCrashTornWrite;
        return IOError("simulated crash at {} #{} of {}", FileOpName(op), number, location);
      }
      return IOError("injected failure of {} #{} of {}", FileOpName(op), number, location);
    }
    return Ok();
  }

  // For calls that touch no storage (sizes, positions): they only stop working after a crash.
  Status CheckAlive(FileOp op, std::string_view location) {
    std::lock_guard lock(mu_);
    if (crashed_) return RefusedAfterCrash(op, location);
    return Ok();
  }

  void Inject(Fault fault) {
    std::lock_guard lock(mu_);
    armed_.push_back(std::move(fault));
  }
  void Clear() {
    std::lock_guard lock(mu_);
    armed_.clear();
  }
  int64_t count(FileOp op) const {
    std::lock_guard lock(mu_);
    return counts_[static_cast<size_t>(op)];
  }
  int64_t fired() const {
    std::lock_guard lock(mu_);
    return fired_;
  }
  bool crashed() const {
    std::lock_guard lock(mu_);
    return crashed_;
  }

 private:
  static std::unexpected<Error> RefusedAfterCrash(FileOp op, std::string_view location) {
    return IOError("{} of {} refused: the process crashed (simulated)", FileOpName(op), location);
  }

  mutable std::mutex mu_;
  std::array<int64_t, kFileOpCount> counts_{};
  std::vector<Fault> armed_;
  int64_t fired_ = 0;
  bool crashed_ = false;
};

namespace {

using Injector = FaultInjectingFileIO::Injector;

class FaultInputFile : public InputFile {
 public:
  FaultInputFile(std::unique_ptr<InputFile> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}

  const std::string& location() const override { return base_->location(); }

  Result<int64_t> Size() const override {
    FLOE_RETURN_IF_ERROR(injector_->CheckAlive(FileOp::kRead, location()));
    return base_->Size();
  }

  Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const override {
    FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kRead, location()));
    return base_->ReadAt(offset, out);
  }

 private:
  std::unique_ptr<InputFile> base_;
  std::shared_ptr<Injector> injector_;
};

class FaultFileWriter : public FileWriter {
 public:
  FaultFileWriter(std::unique_ptr<FileWriter> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}

  const std::string& location() const override { return base_->location(); }
  int64_t position() const override { return base_->position(); }

  Status Write(std::span<const std::byte> data) override {
    bool torn = false;
    Status allowed = injector_->Check(FileOp::kWrite, location(), &torn);
    if (!allowed) {
      // The process "dies" here, so what the base reports no longer matters to anyone.
      if (torn) {
        (void)base_->Write(data.first(data.size() / 2));
        (void)base_->Close();
      }
      return allowed;
    }
    return base_->Write(data);
  }
  Status Sync() override {
    FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kSync, location()));
    return base_->Sync();
  }
  Status Close() override {
    FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kClose, location()));
    return base_->Close();
  }

 private:
  std::unique_ptr<FileWriter> base_;
  std::shared_ptr<Injector> injector_;
};

class FaultOutputFile : public OutputFile {
 public:
  FaultOutputFile(std::unique_ptr<OutputFile> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}

  const std::string& location() const override { return base_->location(); }
  Result<std::unique_ptr<FileWriter>> Create() override {
    FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kCreate, location()));
    return Wrap(base_->Create());
  }
  Result<std::unique_ptr<FileWriter>> CreateOrOverwrite() override {
    FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kCreate, location()));
    return Wrap(base_->CreateOrOverwrite());
  }

 private:
  Result<std::unique_ptr<FileWriter>> Wrap(Result<std::unique_ptr<FileWriter>> created) {
    if (!created) return std::unexpected(std::move(created).error());
    return std::make_unique<FaultFileWriter>(std::move(*created), injector_);
  }

  std::unique_ptr<OutputFile> base_;
  std::shared_ptr<Injector> injector_;
};

}  // namespace

FaultInjectingFileIO::FaultInjectingFileIO(std::shared_ptr<FileIO> base)
    : base_(std::move(base)), injector_(std::make_shared<Injector>()) {}
FaultInjectingFileIO::~FaultInjectingFileIO() = default;

void FaultInjectingFileIO::Inject(Fault fault) { injector_->Inject(std::move(fault)); }
void FaultInjectingFileIO::ClearFaults() { injector_->Clear(); }
int64_t FaultInjectingFileIO::count(FileOp op) const { return injector_->count(op); }
int64_t FaultInjectingFileIO::faults_fired() const { return injector_->fired(); }
bool FaultInjectingFileIO::crashed() const { return injector_->crashed(); }

Result<std::unique_ptr<InputFile>> FaultInjectingFileIO::NewInputFile(std::string_view location) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kOpen, location));
  FLOE_ASSIGN_OR_RETURN(auto file, base_->NewInputFile(location));
  return std::make_unique<FaultInputFile>(std::move(file), injector_);
}

Result<std::unique_ptr<OutputFile>> FaultInjectingFileIO::NewOutputFile(std::string_view location) {
  FLOE_RETURN_IF_ERROR(injector_->CheckAlive(FileOp::kCreate, location));
  FLOE_ASSIGN_OR_RETURN(auto file, base_->NewOutputFile(location));
  return std::make_unique<FaultOutputFile>(std::move(file), injector_);
}

Result<FileEntry> FaultInjectingFileIO::GetInfo(std::string_view location) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kGetInfo, location));
  return base_->GetInfo(location);
}

Status FaultInjectingFileIO::Delete(std::string_view location) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kDelete, location));
  return base_->Delete(location);
}

Result<std::vector<FileEntry>> FaultInjectingFileIO::List(std::string_view folder) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kList, folder));
  return base_->List(folder);
}

Status FaultInjectingFileIO::CreateDirectories(std::string_view folder) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kCreateDirectories, folder));
  return base_->CreateDirectories(folder);
}

Status FaultInjectingFileIO::Rename(std::string_view from, std::string_view to) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kRename, fmt::format("{} -> {}", from, to)));
  return base_->Rename(from, to);
}

Status FaultInjectingFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kRename, fmt::format("{} -> {}", from, to)));
  return base_->RenameNoReplace(from, to);
}

Status FaultInjectingFileIO::SyncDirectory(std::string_view folder) {
  FLOE_RETURN_IF_ERROR(injector_->Check(FileOp::kSyncDirectory, folder));
  return base_->SyncDirectory(folder);
}

}  // namespace floe::io
