#include "floe/io/routing_file_io.h"

#include <utility>

namespace floe::io {

Result<std::unique_ptr<InputFile>> RoutingFileIO::NewInputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->NewInputFile(target.location);
}

Result<std::unique_ptr<InputFile>> RoutingFileIO::NewInputFileOfSize(std::string_view location,
                                                                     int64_t size) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->NewInputFileOfSize(target.location, size);
}

Result<std::unique_ptr<OutputFile>> RoutingFileIO::NewOutputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->NewOutputFile(target.location);
}

Result<FileEntry> RoutingFileIO::GetInfo(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->GetInfo(target.location);
}

Status RoutingFileIO::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->Delete(target.location);
}

Result<std::vector<FileEntry>> RoutingFileIO::List(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(folder));
  return target.io->List(target.location);
}

Status RoutingFileIO::CreateDirectories(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(folder));
  return target.io->CreateDirectories(target.location);
}

Status RoutingFileIO::Rename(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(auto targets, RouteBoth(from, to));
  return targets.first.io->Rename(targets.first.location, targets.second.location);
}

Status RoutingFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(auto targets, RouteBoth(from, to));
  return targets.first.io->RenameNoReplace(targets.first.location, targets.second.location);
}

Status RoutingFileIO::SyncDirectory(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(folder));
  return target.io->SyncDirectory(target.location);
}

Result<bool> RoutingFileIO::SupportsExclusiveCreate(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(folder));
  return target.io->SupportsExclusiveCreate(target.location);
}

Status RoutingFileIO::DeleteRecursive(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  return target.io->DeleteRecursive(target.location);
}

Status RoutingFileIO::WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                                     bool overwrite, bool durable) {
  FLOE_ASSIGN_OR_RETURN(Target target, Route(location));
  if (durable) return target.io->WriteFileAtomically(target.location, bytes, overwrite);
  return target.io->ReplaceFileUnsynced(
      target.location, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<std::pair<RoutingFileIO::Target, RoutingFileIO::Target>> RoutingFileIO::RouteBoth(
    std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(Target source, Route(from));
  FLOE_ASSIGN_OR_RETURN(Target target, Route(to));
  if (source.io != target.io) {
    return Unsupported("renaming {} to {}: the two locations are on different storage", from, to);
  }
  return std::pair(std::move(source), std::move(target));
}

}  // namespace floe::io
