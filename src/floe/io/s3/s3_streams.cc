#include <deque>
#include <future>

#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_streams_internal.h"
#include "floe/util/thread_pool.h"

namespace floe::io {
namespace {

class S3InputFile : public InputFile {
 public:
  S3InputFile(std::shared_ptr<S3Client> client, S3Path path, std::string location, int64_t size)
      : client_(std::move(client)),
        path_(std::move(path)),
        location_(std::move(location)),
        size_(size) {}

  const std::string& location() const override { return location_; }
  Result<int64_t> Size() const override { return size_; }

  Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const override {
    if (offset < 0) return InvalidArgument("reading {}: negative offset {}", location_, offset);
    if (offset + static_cast<int64_t>(out.size()) > size_) {
      return CorruptData("reading {}: wanted {} bytes at offset {}, but the file ends at {}",
                         location_, out.size(), offset, size_);
    }
    FLOE_RETURN_IF_ERROR(client_->GetRange(path_.bucket, path_.key, offset, out));
    return out.size();
  }

 private:
  std::shared_ptr<S3Client> client_;
  S3Path path_;
  std::string location_;
  int64_t size_;
};

// Buffers up to the multipart threshold; beyond it, sends full parts to the upload pool and keeps
// at most parts_in_flight of them outstanding.
class S3FileWriter : public FileWriter {
 public:
  S3FileWriter(std::shared_ptr<S3Client> client, std::shared_ptr<ThreadPool> uploads, S3Path path,
               std::string location, bool exclusive)
      : client_(std::move(client)),
        uploads_(std::move(uploads)),
        path_(std::move(path)),
        location_(std::move(location)),
        exclusive_(exclusive) {
    const S3Options& options = client_->options();
    part_size_ = static_cast<size_t>(options.part_size);
    threshold_ =
        static_cast<size_t>(static_cast<double>(options.part_size) * options.multipart_threshold);
    max_in_flight_ = static_cast<size_t>(std::max(1, options.parts_in_flight));
  }

  ~S3FileWriter() override {
    if (closed_) return;
    // Abandoned: nothing becomes visible, and the parts sent so far are dropped.
    DrainParts();
    if (!upload_id_.empty()) {
      (void)client_->AbortMultipartUpload(path_.bucket, path_.key, upload_id_);
    }
  }

  const std::string& location() const override { return location_; }
  int64_t position() const override { return position_; }

  Status Write(std::span<const std::byte> data) override {
    FLOE_RETURN_IF_ERROR(CheckOpen());
    buffer_.append(reinterpret_cast<const char*>(data.data()), data.size());
    position_ += static_cast<int64_t>(data.size());
    if (upload_id_.empty() && buffer_.size() <= threshold_) return Ok();
    while (buffer_.size() >= part_size_) {
      Status sent = SendPart(buffer_.substr(0, part_size_));
      buffer_.erase(0, part_size_);
      if (!sent) return Fail(std::move(sent).error());
    }
    return Ok();
  }

  Status Sync() override { return CheckOpen(); }

  Status Close() override {
    if (closed_) return Ok();
    if (failed_) return std::unexpected(*failed_);
    closed_ = true;
    if (upload_id_.empty()) {
      Status put =
          client_->Put(path_.bucket, path_.key, std::as_bytes(std::span(buffer_)), exclusive_);
      buffer_.clear();
      return put;
    }
    Status sent = buffer_.empty() ? Ok() : SendPart(std::move(buffer_));
    buffer_.clear();
    if (sent) sent = DrainParts();
    if (sent) {
      sent =
          client_->CompleteMultipartUpload(path_.bucket, path_.key, upload_id_, etags_, exclusive_);
    }
    if (!sent) {
      DrainParts();
      (void)client_->AbortMultipartUpload(path_.bucket, path_.key, upload_id_);
      return sent;
    }
    return Ok();
  }

 private:
  Status CheckOpen() const {
    if (closed_) return InvalidArgument("writing {}: the writer is closed", location_);
    if (failed_) return std::unexpected(*failed_);
    return Ok();
  }

  // Records the first failure: the writer keeps failing, and the upload is aborted.
  Status Fail(Error error) {
    if (!failed_) {
      failed_ = error;
      DrainParts();
      if (!upload_id_.empty()) {
        (void)client_->AbortMultipartUpload(path_.bucket, path_.key, upload_id_);
        upload_id_.clear();
      }
    }
    return std::unexpected(std::move(error));
  }

  Status SendPart(std::string bytes) {
    if (upload_id_.empty()) {
      FLOE_ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(path_.bucket, path_.key));
    }
    while (in_flight_.size() >= max_in_flight_) FLOE_RETURN_IF_ERROR(WaitOldest());
    int number = static_cast<int>(etags_.size()) + 1;
    etags_.emplace_back();
    auto part = std::make_shared<std::string>(std::move(bytes));
    in_flight_.push_back(uploads_->Submit([client = client_, path = path_, id = upload_id_, number,
                                           part]() -> Result<std::string> {
      return client->UploadPart(path.bucket, path.key, id, number, std::as_bytes(std::span(*part)));
    }));
    return Ok();
  }

  // Waits for the oldest part still out and records its ETag.
  Status WaitOldest() {
    size_t index = etags_.size() - in_flight_.size();
    Result<std::string> etag = in_flight_.front().get();
    in_flight_.pop_front();
    if (!etag) return std::unexpected(std::move(etag).error());
    etags_[index] = std::move(*etag);
    return Ok();
  }

  // Waits for every part still out; the first error, if any.
  Status DrainParts() {
    Status first = Ok();
    while (!in_flight_.empty()) {
      Status done = WaitOldest();
      if (!done && first) first = std::move(done);
    }
    return first;
  }

  std::shared_ptr<S3Client> client_;
  std::shared_ptr<ThreadPool> uploads_;
  S3Path path_;
  std::string location_;
  bool exclusive_;
  size_t part_size_ = 0;
  size_t threshold_ = 0;
  size_t max_in_flight_ = 1;
  std::string buffer_;
  int64_t position_ = 0;
  bool closed_ = false;
  std::optional<Error> failed_;
  std::string upload_id_;
  std::vector<std::string> etags_;  // by part number - 1
  std::deque<std::future<Result<std::string>>> in_flight_;
};

class S3OutputFile : public OutputFile {
 public:
  S3OutputFile(std::shared_ptr<S3Client> client, std::shared_ptr<ThreadPool> uploads, S3Path path,
               std::string location)
      : client_(std::move(client)),
        uploads_(std::move(uploads)),
        path_(std::move(path)),
        location_(std::move(location)) {}

  const std::string& location() const override { return location_; }

  Result<std::unique_ptr<FileWriter>> Create() override {
    auto existing = client_->Head(path_.bucket, path_.key);
    if (existing) return AlreadyExists("creating {}: the object already exists", location_);
    if (existing.error().kind() != ErrorKind::kNotFound) {
      return std::unexpected(std::move(existing).error());
    }
    return Open(/*exclusive=*/true);
  }

  Result<std::unique_ptr<FileWriter>> CreateOrOverwrite() override {
    return Open(/*exclusive=*/false);
  }

 private:
  Result<std::unique_ptr<FileWriter>> Open(bool exclusive) {
    if (path_.key.empty() || path_.key.ends_with('/')) {
      return InvalidArgument("creating {}: not a file location", location_);
    }
    return std::make_unique<S3FileWriter>(client_, uploads_, path_, location_, exclusive);
  }

  std::shared_ptr<S3Client> client_;
  std::shared_ptr<ThreadPool> uploads_;
  S3Path path_;
  std::string location_;
};

}  // namespace

std::unique_ptr<InputFile> MakeS3InputFile(std::shared_ptr<S3Client> client, S3Path path,
                                           std::string location, int64_t size) {
  return std::make_unique<S3InputFile>(std::move(client), std::move(path), std::move(location),
                                       size);
}

std::unique_ptr<OutputFile> MakeS3OutputFile(std::shared_ptr<S3Client> client,
                                             std::shared_ptr<ThreadPool> uploads, S3Path path,
                                             std::string location) {
  return std::make_unique<S3OutputFile>(std::move(client), std::move(uploads), std::move(path),
                                        std::move(location));
}

}  // namespace floe::io
