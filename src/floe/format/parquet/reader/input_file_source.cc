#include "floe/format/parquet/reader/input_file_source.h"

#include "floe/format/parquet/source.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

namespace {

class InputFileSource final : public RandomAccessSource {
 public:
  InputFileSource(std::shared_ptr<io::InputFile> file, uint64_t size)
      : file_(std::move(file)), size_(size) {}

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return file_->location(); }

  Status ReadAt(uint64_t offset, std::span<std::byte> out) const override {
    if (offset > size_ || out.size() > size_ - offset) {
      return CorruptData("{}: read of {} bytes at offset {} past the end ({} bytes)", name(),
                         out.size(), offset, size_);
    }
    if (out.empty()) return Ok();
    FLOE_ASSIGN_OR_RETURN(size_t read, file_->ReadAt(static_cast<int64_t>(offset), out));
    if (read != out.size()) {
      return IOError("{}: short read of {} bytes at offset {}", name(), read, offset);
    }
    return Ok();
  }

 private:
  std::shared_ptr<io::InputFile> file_;
  uint64_t size_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessSource>> MakeInputFileSource(
    std::shared_ptr<io::InputFile> file) {
  FLOE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  if (size < 0) return IOError("{}: negative file size {}", file->location(), size);
  return std::make_unique<InputFileSource>(std::move(file), static_cast<uint64_t>(size));
}

}  // namespace floe::parquet
