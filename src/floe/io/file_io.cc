#include "floe/io/file_io.h"

#include <atomic>
#include <random>

#include "floe/io/location.h"

namespace floe::io {
namespace {

// A name no other writer (thread or process) picks: random bits plus a per-process counter.
std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  return fmt::format("{:016x}-{}", random(), counter.fetch_add(1));
}

}  // namespace

Result<std::string> InputFile::ReadAll() const {
  FLOE_ASSIGN_OR_RETURN(int64_t size, Size());
  std::string content(static_cast<size_t>(size), '\0');
  FLOE_RETURN_IF_ERROR(ReadAt(0, std::as_writable_bytes(std::span(content))));
  return content;
}

Result<std::unique_ptr<InputFile>> FileIO::NewInputFileOfSize(std::string_view location,
                                                              int64_t /*size*/) {
  return NewInputFile(location);
}

Result<bool> FileIO::SupportsExclusiveCreate(std::string_view /*folder*/) { return true; }

Status FileIO::WriteFileAtomically(std::string_view location, std::span<const std::byte> bytes,
                                   bool overwrite) {
  return WriteWholeFile(location, bytes, overwrite, /*durable=*/true);
}

Status FileIO::ReplaceFileUnsynced(std::string_view location, std::string_view bytes) {
  return WriteWholeFile(location, std::as_bytes(std::span(bytes)), /*overwrite=*/true,
                        /*durable=*/false);
}

Status FileIO::WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                              bool overwrite, bool durable) {
  std::string context = fmt::format("writing {} atomically", location);
  std::string folder = ParentLocation(location);
  std::string temp =
      JoinLocation(folder, fmt::format(".{}.{}.tmp", FileName(location), UniqueSuffix()));

  auto output = NewOutputFile(temp);
  if (!output) return std::unexpected(std::move(output.error().AddContext(context)));
  auto writer = (*output)->Create();
  if (!writer) return std::unexpected(std::move(writer.error().AddContext(context)));
  Status written = (*writer)->Write(bytes);
  if (written && durable) written = (*writer)->Sync();
  if (written) {
    written = (*writer)->Close();
  } else {
    (void)(*writer)->Close();
  }
  if (written) {
    written = overwrite ? Rename(temp, location) : RenameNoReplace(temp, location);
  }
  if (!written) {
    // Best effort: the temporary file is garbage whether or not this succeeds.
    (void)Delete(temp);
    return std::unexpected(std::move(written.error().AddContext(context)));
  }
  if (!durable) return Ok();
  Status synced = SyncDirectory(folder.empty() ? std::string(".") : folder);
  if (!synced) {
    return CommitStateUnknown("{}: renamed into place, but syncing its folder failed: {}", context,
                              synced.error().ToString());
  }
  return Ok();
}

Result<bool> FileIO::Exists(std::string_view location) {
  auto info = GetInfo(location);
  if (info) return true;
  if (info.error().kind() == ErrorKind::kNotFound) return false;
  return std::unexpected(std::move(info).error());
}

Result<std::string> FileIO::ReadFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(auto file, NewInputFile(location));
  return file->ReadAll();
}

Status FileIO::WriteFile(std::string_view location, std::string_view bytes, bool overwrite) {
  FLOE_ASSIGN_OR_RETURN(auto output, NewOutputFile(location));
  FLOE_ASSIGN_OR_RETURN(auto writer, overwrite ? output->CreateOrOverwrite() : output->Create());
  Status written = writer->Write(bytes);
  if (!written) {
    (void)writer->Close();
    return written;
  }
  return writer->Close();
}

namespace {

Status ListInto(FileIO& io, const std::string& folder, const std::string& relative,
                std::vector<FileEntry>& out) {
  FLOE_ASSIGN_OR_RETURN(std::vector<FileEntry> entries, io.List(folder));
  for (FileEntry& entry : entries) {
    std::string name = relative.empty() ? entry.name : relative + "/" + entry.name;
    std::string location = entry.location;
    bool is_dir = entry.is_dir;
    entry.name = name;
    out.push_back(std::move(entry));
    if (is_dir) FLOE_RETURN_IF_ERROR(ListInto(io, location, name, out));
  }
  return Ok();
}

}  // namespace

Result<std::vector<FileEntry>> FileIO::ListRecursive(std::string_view folder) {
  std::vector<FileEntry> out;
  FLOE_RETURN_IF_ERROR(ListInto(*this, std::string(folder), "", out));
  return out;
}

Status FileIO::DeleteRecursive(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileEntry info, GetInfo(location));
  if (info.is_dir) {
    FLOE_ASSIGN_OR_RETURN(std::vector<FileEntry> entries, ListRecursive(location));
    // Entries come folder first, so the reverse order empties each folder before removing it.
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      FLOE_RETURN_IF_ERROR(Delete(it->location));
    }
  }
  return Delete(location);
}

}  // namespace floe::io
