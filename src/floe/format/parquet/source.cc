#include "floe/format/parquet/source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace floe::parquet {

Result<std::vector<std::byte>> RandomAccessSource::Read(uint64_t offset, uint64_t length) const {
  if (offset > size() || length > size() - offset) {
    return CorruptData("{}: range [{}, {}) lies beyond the end of the file ({} bytes)", name(),
                       offset, offset + length, size());
  }
  std::vector<std::byte> bytes(length);
  FLOE_RETURN_IF_ERROR(ReadAt(offset, bytes));
  return bytes;
}

namespace {

class LocalFile final : public RandomAccessSource {
 public:
  LocalFile(int fd, uint64_t size, std::string name)
      : fd_(fd), size_(size), name_(std::move(name)) {}
  ~LocalFile() override { ::close(fd_); }
  LocalFile(const LocalFile&) = delete;
  LocalFile& operator=(const LocalFile&) = delete;

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }

  Status ReadAt(uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) {
      return CorruptData("{}: read of {} bytes at offset {} past the end ({} bytes)", name_,
                         out.size(), offset, size_);
    }
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n =
          ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return IOError("{}: read at offset {}: {}", name_, offset + done, std::strerror(errno));
      }
      if (n == 0)
        return IOError("{}: file shrank while reading at offset {}", name_, offset + done);
      done += static_cast<size_t>(n);
    }
    return Ok();
  }

 private:
  int fd_;
  uint64_t size_;
  std::string name_;
};

class MemorySource final : public RandomAccessSource {
 public:
  MemorySource(std::vector<std::byte> bytes, std::string name)
      : bytes_(std::move(bytes)), name_(std::move(name)) {}
  uint64_t size() const override { return bytes_.size(); }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, std::span<std::byte> out) const override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) {
      return CorruptData("{}: read of {} bytes at offset {} past the end ({} bytes)", name_,
                         out.size(), offset, bytes_.size());
    }
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return Ok();
  }

 private:
  std::vector<std::byte> bytes_;
  std::string name_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessSource>> OpenLocalFile(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound("{}: no such file", path.string());
    return IOError("{}: cannot open: {}", path.string(), std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return IOError("{}: not a regular file", path.string());
  }
  return std::make_unique<LocalFile>(fd, static_cast<uint64_t>(st.st_size), path.string());
}

std::unique_ptr<RandomAccessSource> MakeMemorySource(std::vector<std::byte> bytes,
                                                     std::string name) {
  return std::make_unique<MemorySource>(std::move(bytes), std::move(name));
}

}  // namespace floe::parquet
