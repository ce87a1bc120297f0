#pragma once

// FileIO over S3 and S3-compatible stores, for s3:// and s3a:// locations ("s3://bucket/key").
//
// Reads: an InputFile is opened with one HEAD (none when the size is known: NewInputFileOfSize)
// and reads byte ranges with ranged GETs, on a pool of kept-alive connections. Writes: a file up
// to part size × threshold is sent as one PUT when it is closed; a larger one streams as a
// multipart upload whose parts go up in parallel while the writer keeps writing, at most
// s3.multipart.num-threads parts in flight (memory: that many parts plus the one being filled).
// An upload that fails, or a writer dropped before Close, is aborted. Nothing is visible before
// Close succeeds (so Sync only checks the writer is open), and a file appears whole or not at all.
//
// Folders do not exist in S3: a folder is there when an object's key starts with "folder/", or a
// "folder/" marker object (what CreateDirectories writes, as Hadoop's S3A does) is. Create checks
// with a HEAD that nothing is at the key, and sends If-None-Match: * so that two writers cannot
// both create a file. WriteFileAtomically is one PUT (with If-None-Match: * unless overwriting):
// atomic for readers, and exclusive where the store honours conditional writes
// (SupportsExclusiveCreate). Rename is a copy then a delete and not atomic; RenameNoReplace
// copies through a conditional PUT, so it stays exclusive. DeleteRecursive lists and deletes in
// batches of 1000.
//
// Errors name the operation, the object and the store's error code (see s3_client.h).

#include <memory>

#include "floe/io/file_io.h"
#include "floe/io/s3/s3_options.h"

namespace floe {
class ThreadPool;
}

namespace floe::io {

class S3Client;

// Bucket and key of an s3:// or s3a:// location; kInvalidArgument for another scheme or no
// bucket. The key has no leading '/' and repeated '/' collapsed ("" for the bucket's root).
struct S3Path {
  std::string bucket;
  std::string key;
};
Result<S3Path> ParseS3Location(std::string_view location);

// Whether location's scheme is one S3FileIO serves (s3, s3a).
bool IsS3Location(std::string_view location);

class S3FileIO : public FileIO {
 public:
  explicit S3FileIO(S3Options options);
  ~S3FileIO() override;
  S3FileIO(const S3FileIO&) = delete;
  S3FileIO& operator=(const S3FileIO&) = delete;

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override;
  Result<std::unique_ptr<InputFile>> NewInputFileOfSize(std::string_view location,
                                                        int64_t size) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override;
  Result<FileEntry> GetInfo(std::string_view location) override;
  Status Delete(std::string_view location) override;
  Result<std::vector<FileEntry>> List(std::string_view folder) override;
  Status CreateDirectories(std::string_view folder) override;
  Status Rename(std::string_view from, std::string_view to) override;
  Status RenameNoReplace(std::string_view from, std::string_view to) override;
  Status SyncDirectory(std::string_view folder) override;
  Status DeleteRecursive(std::string_view location) override;

  // Whether the store refuses a PUT with If-None-Match: * over an existing object: found by
  // trying, once per bucket, with a probe object under folder (deleted again).
  Result<bool> SupportsExclusiveCreate(std::string_view folder) override;

  S3Client& client() { return *client_; }

 protected:
  Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes, bool overwrite,
                        bool durable) override;

 private:
  struct Shared;
  Result<bool> IsFolder(const S3Path& path);
  std::shared_ptr<S3Client> client_;
  std::shared_ptr<ThreadPool> uploads_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace floe::io
