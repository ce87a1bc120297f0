#include "floe/io/resolving_file_io.h"

#include "floe/io/local_file_io.h"
#include "floe/io/location.h"
#include "floe/io/s3/s3_file_io.h"
#include "floe/util/strings.h"

namespace floe::io {

ResolvingFileIO::ResolvingFileIO(Properties properties)
    : properties_(std::move(properties)), local_(std::make_unique<LocalFileIO>()) {}

ResolvingFileIO::~ResolvingFileIO() = default;

Result<FileIO*> ResolvingFileIO::For(std::string_view location) {
  std::string_view scheme = LocationScheme(location);
  if (scheme.empty() || EqualsIgnoreCase(scheme, "file")) return local_.get();
  if (IsS3Location(location)) {
    std::call_once(s3_once_, [&] {
      auto options = S3OptionsFrom(properties_);
      if (options) {
        s3_ = std::make_unique<S3FileIO>(std::move(*options));
      } else {
        s3_error_ = std::move(options).error();
      }
    });
    if (s3_error_) return std::unexpected(*s3_error_);
    return s3_.get();
  }
  return Unsupported(
      "location '{}' has scheme '{}', which floe does not support yet (it serves local paths, "
      "file:, s3:// and s3a://)",
      location, scheme);
}

Result<FileIO*> ResolvingFileIO::ForBoth(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(FileIO * source, For(from));
  FLOE_ASSIGN_OR_RETURN(FileIO * target, For(to));
  if (source != target) {
    return Unsupported("renaming {} to {}: the two locations are on different storage", from, to);
  }
  return source;
}

Result<std::unique_ptr<InputFile>> ResolvingFileIO::NewInputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->NewInputFile(location);
}

Result<std::unique_ptr<InputFile>> ResolvingFileIO::NewInputFileOfSize(std::string_view location,
                                                                       int64_t size) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->NewInputFileOfSize(location, size);
}

Result<std::unique_ptr<OutputFile>> ResolvingFileIO::NewOutputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->NewOutputFile(location);
}

Result<FileEntry> ResolvingFileIO::GetInfo(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->GetInfo(location);
}

Status ResolvingFileIO::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->Delete(location);
}

Result<std::vector<FileEntry>> ResolvingFileIO::List(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(folder));
  return io->List(folder);
}

Status ResolvingFileIO::CreateDirectories(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(folder));
  return io->CreateDirectories(folder);
}

Status ResolvingFileIO::Rename(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, ForBoth(from, to));
  return io->Rename(from, to);
}

Status ResolvingFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, ForBoth(from, to));
  return io->RenameNoReplace(from, to);
}

Status ResolvingFileIO::SyncDirectory(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(folder));
  return io->SyncDirectory(folder);
}

Result<bool> ResolvingFileIO::SupportsExclusiveCreate(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(folder));
  return io->SupportsExclusiveCreate(folder);
}

Status ResolvingFileIO::DeleteRecursive(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  return io->DeleteRecursive(location);
}

Status ResolvingFileIO::WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                                       bool overwrite, bool durable) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(location));
  if (durable) return io->WriteFileAtomically(location, bytes, overwrite);
  return io->ReplaceFileUnsynced(
      location, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::shared_ptr<FileIO> MakeFileIO(const Properties& properties) {
  return std::make_shared<ResolvingFileIO>(properties);
}

}  // namespace floe::io
