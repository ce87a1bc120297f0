#include "floe/io/local_file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "floe/io/location.h"

namespace floe::io {
namespace {

std::string ErrnoText(int error) {
  char buffer[256];
  // The GNU strerror_r returns the message, which may or may not live in buffer.
  return strerror_r(error, buffer, sizeof(buffer));
}

// Maps errno from an operation on path to an error of the matching kind.
Error ErrnoError(int error, std::string_view action, std::string_view path) {
  std::string message = fmt::format("{} {}: {}", action, path, ErrnoText(error));
  switch (error) {
    case ENOENT:
      return Error(ErrorKind::kNotFound, std::move(message));
    case EEXIST:
      return Error(ErrorKind::kAlreadyExists, std::move(message));
    default:
      return Error(ErrorKind::kIO, std::move(message));
  }
}

std::unexpected<Error> Fail(int error, std::string_view action, std::string_view path) {
  return std::unexpected(ErrnoError(error, action, path));
}

// Closes fd on scope exit unless released.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

class LocalInputFile : public InputFile {
 public:
  LocalInputFile(std::string location, std::string path, int fd, int64_t size)
      : location_(std::move(location)), path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalInputFile() override { ::close(fd_); }
  LocalInputFile(const LocalInputFile&) = delete;
  LocalInputFile& operator=(const LocalInputFile&) = delete;

  const std::string& location() const override { return location_; }
  Result<int64_t> Size() const override { return size_; }

  Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const override {
    if (offset < 0) return InvalidArgument("reading {}: negative offset {}", location_, offset);
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd_, out.data() + done, out.size() - done,
                          static_cast<off_t>(offset + static_cast<int64_t>(done)));
      if (n < 0) {
        if (errno == EINTR) continue;
        return std::unexpected(ErrnoError(
            errno, fmt::format("reading {} bytes at offset {} of", out.size(), offset), path_));
      }
      if (n == 0) {
        return CorruptData("reading {}: wanted {} bytes at offset {}, but the file ends at {}",
                           location_, out.size(), offset, offset + static_cast<int64_t>(done));
      }
      done += static_cast<size_t>(n);
    }
    return done;
  }

 private:
  std::string location_;
  std::string path_;
  int fd_;
  int64_t size_;
};

// Buffers small writes so that formats emitting a few bytes at a time do not pay a system call
// each. After a failed write the file's content is unknown, so the error sticks: later calls return
// it.
class LocalFileWriter : public FileWriter {
 public:
  static constexpr size_t kBufferSize = 64 * 1024;

  LocalFileWriter(std::string location, std::string path, int fd)
      : location_(std::move(location)), path_(std::move(path)), fd_(fd) {}
  // Abandons the file like a dying process would: buffered bytes are dropped.
  ~LocalFileWriter() override {
    if (fd_ >= 0) ::close(fd_);
  }
  LocalFileWriter(const LocalFileWriter&) = delete;
  LocalFileWriter& operator=(const LocalFileWriter&) = delete;

  const std::string& location() const override { return location_; }
  int64_t position() const override { return position_; }

  Status Write(std::span<const std::byte> data) override {
    FLOE_RETURN_IF_ERROR(CheckUsable("write"));
    if (buffer_.size() + data.size() > kBufferSize) {
      FLOE_RETURN_IF_ERROR(Flush());
      if (data.size() >= kBufferSize) {
        FLOE_RETURN_IF_ERROR(WriteToFile(data, position_));
        position_ += static_cast<int64_t>(data.size());
        return Ok();
      }
    }
    if (buffer_.capacity() < kBufferSize) buffer_.reserve(kBufferSize);
    buffer_.append(reinterpret_cast<const char*>(data.data()), data.size());
    position_ += static_cast<int64_t>(data.size());
    return Ok();
  }

  Status Sync() override {
    FLOE_RETURN_IF_ERROR(CheckUsable("sync"));
    FLOE_RETURN_IF_ERROR(Flush());
    if (::fsync(fd_) != 0) return Remember(ErrnoError(errno, "syncing", path_));
    return Ok();
  }

  Status Close() override {
    if (fd_ < 0) return Ok();
    Status flushed = failed_;
    if (flushed) flushed = Flush();
    int fd = fd_;
    fd_ = -1;
    // Linux releases the descriptor even when close fails, so it must never be retried.
    if (::close(fd) != 0 && flushed) return Fail(errno, "closing", path_);
    return flushed;
  }

 private:
  Status CheckUsable(std::string_view action) const {
    if (fd_ < 0) return InvalidArgument("cannot {} {}: the writer is closed", action, location_);
    return failed_;
  }

  Status Remember(Error error) {
    failed_ = std::unexpected(error);
    return std::unexpected(std::move(error));
  }

  Status Flush() {
    if (buffer_.empty()) return Ok();
    int64_t offset = position_ - static_cast<int64_t>(buffer_.size());
    Status written = WriteToFile(std::as_bytes(std::span(buffer_)), offset);
    buffer_.clear();
    return written;
  }

  // offset is where data starts in the file, for the error message.
  Status WriteToFile(std::span<const std::byte> data, int64_t offset) {
    while (!data.empty()) {
      ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return Remember(ErrnoError(
            errno, fmt::format("writing {} bytes at offset {} of", data.size(), offset), path_));
      }
      offset += n;
      data = data.subspan(static_cast<size_t>(n));
    }
    return Ok();
  }

  std::string location_;
  std::string path_;
  int fd_;
  int64_t position_ = 0;
  std::string buffer_;
  Status failed_;
};

Status MakeDirectories(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Ok();
    return Fail(ENOTDIR, "creating folder", path);
  }
  std::string parent = ParentLocation(path);
  if (!parent.empty() && parent != path) FLOE_RETURN_IF_ERROR(MakeDirectories(parent));
  // Another thread or process may create it between the stat and here; that is success.
  if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
    return Fail(errno, "creating folder", path);
  }
  return Ok();
}

class LocalOutputFile : public OutputFile {
 public:
  LocalOutputFile(std::string location, std::string path)
      : location_(std::move(location)), path_(std::move(path)) {}

  const std::string& location() const override { return location_; }
  Result<std::unique_ptr<FileWriter>> Create() override { return Open(O_EXCL); }
  Result<std::unique_ptr<FileWriter>> CreateOrOverwrite() override { return Open(O_TRUNC); }

 private:
  Result<std::unique_ptr<FileWriter>> Open(int extra_flags) {
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | extra_flags;
    int fd = ::open(path_.c_str(), flags, 0666);
    if (fd < 0 && errno == ENOENT) {
      std::string parent = ParentLocation(path_);
      if (!parent.empty()) {
        FLOE_RETURN_IF_ERROR(MakeDirectories(parent));
        fd = ::open(path_.c_str(), flags, 0666);
      }
    }
    if (fd < 0) return Fail(errno, "creating", path_);
    return std::make_unique<LocalFileWriter>(location_, path_, fd);
  }

  std::string location_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<InputFile>> LocalFileIO::NewInputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(location));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Fail(errno, "opening", path);
  struct stat st;
  int error = ::fstat(fd, &st) != 0 ? errno : (S_ISDIR(st.st_mode) ? EISDIR : 0);
  if (error != 0) {
    ::close(fd);
    return Fail(error, "opening", path);
  }
  return std::make_unique<LocalInputFile>(std::string(location), std::move(path), fd,
                                          static_cast<int64_t>(st.st_size));
}

Result<std::unique_ptr<OutputFile>> LocalFileIO::NewOutputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(location));
  return std::make_unique<LocalOutputFile>(std::string(location), std::move(path));
}

Result<FileEntry> LocalFileIO::GetInfo(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(location));
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Fail(errno, "inspecting", path);
  bool is_dir = S_ISDIR(st.st_mode);
  return FileEntry{FileName(location), std::string(location),
                   is_dir ? 0 : static_cast<int64_t>(st.st_size), is_dir};
}

Status LocalFileIO::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(location));
  if (::unlink(path.c_str()) == 0) return Ok();
  // unlink refuses folders with EISDIR on Linux (EPERM elsewhere).
  if (errno == EISDIR || errno == EPERM) {
    if (::rmdir(path.c_str()) == 0) return Ok();
  }
  return Fail(errno, "deleting", path);
}

Result<std::vector<FileEntry>> LocalFileIO::List(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(folder));
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return Fail(errno, "listing", path);
  std::vector<FileEntry> entries;
  int error = 0;
  while (true) {
    errno = 0;
    struct dirent* entry = ::readdir(dir);
    if (entry == nullptr) {
      error = errno;
      break;
    }
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (::fstatat(::dirfd(dir), entry->d_name, &st, 0) != 0) {
      // Deleted between readdir and here: it is no longer part of the folder.
      if (errno == ENOENT) continue;
      error = errno;
      break;
    }
    bool is_dir = S_ISDIR(st.st_mode);
    entries.push_back(
        FileEntry{std::string(name), JoinLocation(folder, name),
                  is_dir ? 0 : static_cast<int64_t>(st.st_size), is_dir,
                  static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000});
  }
  ::closedir(dir);
  if (error != 0) return Fail(error, "listing", path);
  std::sort(entries.begin(), entries.end(),
            [](const FileEntry& a, const FileEntry& b) { return a.name < b.name; });
  return entries;
}

Status LocalFileIO::CreateDirectories(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(folder));
  return MakeDirectories(path);
}

Status LocalFileIO::Rename(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(std::string from_path, ToLocalPath(from));
  FLOE_ASSIGN_OR_RETURN(std::string to_path, ToLocalPath(to));
  if (::rename(from_path.c_str(), to_path.c_str()) != 0) {
    return Fail(errno, "renaming " + from_path + " to", to_path);
  }
  return Ok();
}

Status LocalFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  FLOE_ASSIGN_OR_RETURN(std::string from_path, ToLocalPath(from));
  FLOE_ASSIGN_OR_RETURN(std::string to_path, ToLocalPath(to));
  std::string action = "renaming " + from_path + " (no replace) to";
  if (options_.use_renameat2) {
    if (::renameat2(AT_FDCWD, from_path.c_str(), AT_FDCWD, to_path.c_str(), RENAME_NOREPLACE) ==
        0) {
      return Ok();
    }
    // EINVAL/ENOSYS: the kernel or filesystem lacks the flag; anything else is a real answer.
    if (errno != EINVAL && errno != ENOSYS) return Fail(errno, action, to_path);
  }
  // link() fails with EEXIST when the target exists, which makes it an exclusive rename in two
  // steps.
  if (::link(from_path.c_str(), to_path.c_str()) != 0) return Fail(errno, action, to_path);
  // Once the link exists the target is ours: reporting a failure now would make a committer treat
  // a landed commit as lost. A source name that cannot be removed is left behind as garbage.
  (void)::unlink(from_path.c_str());
  return Ok();
}

Status LocalFileIO::SyncDirectory(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string path, ToLocalPath(folder));
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail(errno, "opening folder", path);
  FdCloser closer(fd);
  if (::fsync(fd) != 0) return Fail(errno, "syncing folder", path);
  return Ok();
}

}  // namespace floe::io
