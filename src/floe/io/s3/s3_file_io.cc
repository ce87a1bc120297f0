#include "floe/io/s3/s3_file_io.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "floe/io/location.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_streams_internal.h"
#include "floe/util/strings.h"
#include "floe/util/thread_pool.h"
#include "floe/util/uuid.h"

namespace floe::io {

bool IsS3Location(std::string_view location) {
  std::string_view scheme = LocationScheme(location);
  return EqualsIgnoreCase(scheme, "s3") || EqualsIgnoreCase(scheme, "s3a");
}

Result<S3Path> ParseS3Location(std::string_view location) {
  if (!IsS3Location(location)) {
    return InvalidArgument("location '{}' is not an s3:// or s3a:// location", location);
  }
  std::string_view rest = location.substr(LocationScheme(location).size() + 3);
  size_t slash = rest.find('/');
  S3Path path;
  path.bucket = std::string(rest.substr(0, slash));
  if (path.bucket.empty()) return InvalidArgument("location '{}' names no bucket", location);
  std::string_view key = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  bool trailing_slash = key.ends_with('/');
  // Collapse "//" and drop "." segments the way every other location is normalized.
  std::string rooted(1, '/');
  rooted.append(key);
  std::string normalized = NormalizeLocation(rooted);
  path.key = normalized.size() > 1 ? normalized.substr(1) : "";
  if (trailing_slash && !path.key.empty()) path.key += '/';
  return path;
}

namespace {

// The key as a folder prefix: "a/b" -> "a/b/", "" (the bucket's root) -> "".
std::string FolderPrefix(std::string_view key) {
  std::string prefix(key);
  while (prefix.ends_with('/')) prefix.pop_back();
  if (!prefix.empty()) prefix += '/';
  return prefix;
}

std::string WithoutTrailingSlash(std::string_view location) {
  while (location.size() > 1 && location.ends_with('/')) location.remove_suffix(1);
  return std::string(location);
}

}  // namespace

struct S3FileIO::Shared {
  std::mutex mutex;
  std::map<std::string, bool, std::less<>> conditional_create;  // by bucket
};

S3FileIO::S3FileIO(S3Options options)
    : client_(std::make_shared<S3Client>(std::move(options))),
      uploads_(std::make_shared<ThreadPool>(
          static_cast<size_t>(std::max(1, client_->options().parts_in_flight)))),
      shared_(std::make_shared<Shared>()) {}

S3FileIO::~S3FileIO() = default;

Result<bool> S3FileIO::IsFolder(const S3Path& path) {
  std::string prefix = FolderPrefix(path.key);
  if (prefix.empty()) return true;  // a bucket's root
  FLOE_ASSIGN_OR_RETURN(S3Listing listing, client_->List(path.bucket, prefix, "", 1));
  return !listing.objects.empty();
}

Result<std::unique_ptr<InputFile>> S3FileIO::NewInputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  auto info = client_->Head(path.bucket, path.key);
  if (!info) {
    if (info.error().kind() == ErrorKind::kNotFound && !path.key.empty()) {
      FLOE_ASSIGN_OR_RETURN(bool folder, IsFolder(path));
      if (folder) return IOError("opening {}: it is a folder", location);
    }
    return std::unexpected(std::move(info).error());
  }
  return MakeS3InputFile(client_, std::move(path), std::string(location), info->size);
}

Result<std::unique_ptr<InputFile>> S3FileIO::NewInputFileOfSize(std::string_view location,
                                                                int64_t size) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  if (size < 0) return InvalidArgument("opening {}: negative size {}", location, size);
  return MakeS3InputFile(client_, std::move(path), std::string(location), size);
}

Result<std::unique_ptr<OutputFile>> S3FileIO::NewOutputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  return MakeS3OutputFile(client_, uploads_, std::move(path), std::string(location));
}

Result<FileEntry> S3FileIO::GetInfo(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  FileEntry entry;
  entry.location = std::string(location);
  entry.name = FileName(location);
  if (!path.key.empty() && !path.key.ends_with('/')) {
    auto info = client_->Head(path.bucket, path.key);
    if (info) {
      entry.size = info->size;
      return entry;
    }
    if (info.error().kind() != ErrorKind::kNotFound)
      return std::unexpected(std::move(info).error());
  }
  FLOE_ASSIGN_OR_RETURN(bool folder, IsFolder(path));
  if (!folder) return NotFound("{}: no such file or folder", location);
  entry.is_dir = true;
  return entry;
}

Status S3FileIO::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  if (!path.key.empty() && !path.key.ends_with('/')) {
    auto info = client_->Head(path.bucket, path.key);
    if (info) return client_->Delete(path.bucket, path.key);
    if (info.error().kind() != ErrorKind::kNotFound)
      return std::unexpected(std::move(info).error());
  }
  std::string prefix = FolderPrefix(path.key);
  if (prefix.empty()) return InvalidArgument("deleting {}: it is a bucket's root", location);
  FLOE_ASSIGN_OR_RETURN(S3Listing listing, client_->List(path.bucket, prefix, "", 2));
  if (listing.objects.empty()) return NotFound("deleting {}: no such file or folder", location);
  for (const S3Listing::Object& object : listing.objects) {
    if (object.key != prefix) return IOError("deleting {}: the folder is not empty", location);
  }
  return client_->Delete(path.bucket, prefix);
}

Result<std::vector<FileEntry>> S3FileIO::List(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(folder));
  std::string prefix = FolderPrefix(path.key);
  std::string base = WithoutTrailingSlash(folder);
  FLOE_ASSIGN_OR_RETURN(S3Listing listing, client_->List(path.bucket, prefix, "/"));
  std::vector<FileEntry> entries;
  bool marker = false;
  for (const std::string& common : listing.prefixes) {
    std::string name = common.substr(prefix.size());
    while (name.ends_with('/')) name.pop_back();
    if (name.empty()) continue;
    entries.push_back({name, JoinLocation(base, name), 0, true});
  }
  for (const S3Listing::Object& object : listing.objects) {
    if (object.key == prefix) {
      marker = true;
      continue;
    }
    std::string name = object.key.substr(prefix.size());
    entries.push_back({name, JoinLocation(base, name), object.size, false, object.modified_ms});
  }
  if (entries.empty() && !marker && !prefix.empty()) {
    auto file = client_->Head(path.bucket, WithoutTrailingSlash(path.key));
    if (file) return IOError("listing {}: it is a file, not a folder", folder);
    return NotFound("listing {}: no such folder", folder);
  }
  std::sort(entries.begin(), entries.end(),
            [](const FileEntry& a, const FileEntry& b) { return a.name < b.name; });
  return entries;
}

Status S3FileIO::CreateDirectories(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(folder));
  std::string prefix = FolderPrefix(path.key);
  if (prefix.empty()) return Ok();
  // A file at the folder's name or at any parent's would make it unreachable as a folder.
  std::string key = WithoutTrailingSlash(path.key);
  while (!key.empty()) {
    auto file = client_->Head(path.bucket, key);
    if (file) return IOError("creating folder {}: s3://{}/{} is a file", folder, path.bucket, key);
    if (file.error().kind() != ErrorKind::kNotFound)
      return std::unexpected(std::move(file).error());
    size_t slash = key.rfind('/');
    key = slash == std::string::npos ? "" : key.substr(0, slash);
  }
  return client_->Put(path.bucket, prefix, {}, /*if_none_match=*/false);
}

Status S3FileIO::Rename(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(S3Path source, ParseS3Location(from));
  FLOE_ASSIGN_OR_RETURN(S3Path target, ParseS3Location(to));
  if (source.bucket != target.bucket) {
    return Unsupported("renaming {} to {}: S3 copies only within one bucket here", from, to);
  }
  FLOE_RETURN_IF_ERROR(client_->Head(source.bucket, source.key));
  FLOE_RETURN_IF_ERROR(client_->Copy(source.bucket, source.key, target.key));
  return client_->Delete(source.bucket, source.key);
}

Status S3FileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(S3Path source, ParseS3Location(from));
  FLOE_ASSIGN_OR_RETURN(S3Path target, ParseS3Location(to));
  FLOE_ASSIGN_OR_RETURN(std::string bytes, client_->Get(source.bucket, source.key));
  Status put = client_->Put(target.bucket, target.key, std::as_bytes(std::span(bytes)),
                            /*if_none_match=*/true);
  if (!put) {
    if (put.error().kind() == ErrorKind::kAlreadyExists) {
      return AlreadyExists("renaming {} to {}: the target exists", from, to);
    }
    return put;
  }
  return client_->Delete(source.bucket, source.key);
}

Status S3FileIO::SyncDirectory(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(folder));
  FLOE_ASSIGN_OR_RETURN(bool exists, IsFolder(path));
  if (!exists) return NotFound("syncing {}: no such folder", folder);
  return Ok();  // S3 makes every completed write durable by itself
}

Status S3FileIO::DeleteRecursive(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  std::vector<std::string> keys;
  std::string file_key = WithoutTrailingSlash(path.key);
  if (!file_key.empty()) {
    auto file = client_->Head(path.bucket, file_key);
    if (file) keys.push_back(file_key);
  }
  std::string prefix = FolderPrefix(path.key);
  if (prefix.empty()) return InvalidArgument("deleting {}: it is a bucket's root", location);
  FLOE_ASSIGN_OR_RETURN(S3Listing listing, client_->List(path.bucket, prefix, ""));
  for (S3Listing::Object& object : listing.objects) keys.push_back(std::move(object.key));
  if (keys.empty()) return NotFound("deleting {}: no such file or folder", location);
  return client_->DeleteMany(path.bucket, keys);
}

Status S3FileIO::WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                                bool overwrite, bool /*durable*/) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(location));
  Status put = client_->Put(path.bucket, path.key, bytes, /*if_none_match=*/!overwrite);
  if (!put)
    return std::unexpected(
        std::move(put.error().AddContext(fmt::format("writing {} atomically", location))));
  return Ok();
}

Result<bool> S3FileIO::SupportsExclusiveCreate(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(S3Path path, ParseS3Location(folder));
  {
    std::lock_guard lock(shared_->mutex);
    auto it = shared_->conditional_create.find(path.bucket);
    if (it != shared_->conditional_create.end()) return it->second;
  }
  std::string probe = FolderPrefix(path.key) + ".floe-conditional-put-probe-" + RandomUuid();
  // Different bytes the second time: a retried PUT whose first attempt went unanswered takes a
  // 412 over its own bytes as success (S3Client::Put).
  std::string_view first_bytes = "probe 1";
  std::string_view second_bytes = "probe 2";
  FLOE_RETURN_IF_ERROR(
      client_->Put(path.bucket, probe, std::as_bytes(std::span(first_bytes)), true));
  Status second = client_->Put(path.bucket, probe, std::as_bytes(std::span(second_bytes)), true);
  (void)client_->Delete(path.bucket, probe);
  bool honoured = !second && second.error().kind() == ErrorKind::kAlreadyExists;
  if (second || honoured) {
    std::lock_guard lock(shared_->mutex);
    shared_->conditional_create[path.bucket] = honoured;
    return honoured;
  }
  return std::unexpected(std::move(second).error());
}

}  // namespace floe::io
