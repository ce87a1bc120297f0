#include <cstring>
#include <limits>
#include <optional>

#include "floe/stream/checkpoint_format_internal.h"
#include "floe/util/crc32.h"

namespace floe::stream {
namespace {

constexpr std::string_view kStateMagic = "FLOESTAT";
constexpr std::string_view kCompletionMagic = "FLOECKPT";
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kFileHeaderSize = 16;   // magic, version, CRC
constexpr size_t kRecordHeaderSize = 9;  // CRC, length, type

enum RecordType : uint8_t {
  kOperatorRecord = 1,
  kSubtaskRecord = 2,
  kEntryRecord = 3,
  kCompletionRecord = 16,
};

// As LevelDB does: a CRC stored next to data that may itself hold CRCs (a state entry can be any
// bytes, including our own records) is rotated and offset, so that CRC-ing a CRC does not give
// a predictable value.
constexpr uint32_t kMaskDelta = 0xA282EAD8u;
uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

void PutU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}
void PutU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}
uint32_t GetU32(std::string_view bytes) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  return value;
}
uint64_t GetU64(std::string_view bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  return value;
}

Status PutString(std::string& out, std::string_view text, std::string_view what) {
  if (text.size() > std::numeric_limits<uint32_t>::max()) {
    return InvalidArgument("{} of {} bytes does not fit a checkpoint record", what, text.size());
  }
  PutU32(out, static_cast<uint32_t>(text.size()));
  out.append(text);
  return Ok();
}

void PutFileHeader(std::string& out, std::string_view magic) {
  size_t start = out.size();
  out.append(magic);
  PutU32(out, kFormatVersion);
  PutU32(out, Mask(Crc32C(std::string_view(out).substr(start))));
}

Status PutRecord(std::string& out, RecordType type, std::string_view payload,
                 std::string_view what) {
  if (payload.size() > std::numeric_limits<uint32_t>::max()) {
    return InvalidArgument("{} of {} bytes does not fit a checkpoint record", what, payload.size());
  }
  size_t start = out.size();
  PutU32(out, 0);
  PutU32(out, static_cast<uint32_t>(payload.size()));
  out.push_back(static_cast<char>(type));
  out.append(payload);
  uint32_t crc = Mask(Crc32C(std::string_view(out).substr(start + 4)));
  for (int i = 0; i < 4; ++i) out[start + i] = static_cast<char>(crc >> (8 * i));
  return Ok();
}

struct Record {
  RecordType type;
  std::string_view payload;
  size_t offset;
};

// Walks the records of one file, checking the header, every length and every CRC.
class RecordReader {
 public:
  RecordReader(std::string_view bytes, std::string_view location)
      : bytes_(bytes), location_(location) {}

  Status ReadHeader(std::string_view magic) {
    if (bytes_.size() < kFileHeaderSize) {
      return Corrupt(0, "the file has {} bytes, shorter than its {}-byte header", bytes_.size(),
                     kFileHeaderSize);
    }
    if (bytes_.substr(0, magic.size()) != magic) {
      return Corrupt(0, "bad magic (expected '{}')", magic);
    }
    uint32_t stored = GetU32(bytes_.substr(12));
    if (Mask(Crc32C(bytes_.substr(0, 12))) != stored) return Corrupt(0, "header CRC mismatch");
    uint32_t version = GetU32(bytes_.substr(8));
    if (version != kFormatVersion) {
      return Unsupported("{}: checkpoint format version {} (this floe reads version {})", location_,
                         version, kFormatVersion);
    }
    offset_ = kFileHeaderSize;
    return Ok();
  }

  bool AtEnd() const { return offset_ == bytes_.size(); }

  Result<Record> Next() {
    size_t offset = offset_;
    size_t remaining = bytes_.size() - offset;
    if (remaining < kRecordHeaderSize) {
      return Corrupt(offset, "truncated record header ({} of {} bytes)", remaining,
                     kRecordHeaderSize);
    }
    uint32_t stored = GetU32(bytes_.substr(offset));
    uint32_t length = GetU32(bytes_.substr(offset + 4));
    if (length > remaining - kRecordHeaderSize) {
      return Corrupt(offset, "record of {} bytes runs past the end of the file ({} bytes left)",
                     length, remaining - kRecordHeaderSize);
    }
    std::string_view covered = bytes_.substr(offset + 4, 5 + length);
    if (Mask(Crc32C(covered)) != stored) return Corrupt(offset, "record CRC mismatch");
    offset_ = offset + kRecordHeaderSize + length;
    return Record{static_cast<RecordType>(static_cast<uint8_t>(bytes_[offset + 8])),
                  bytes_.substr(offset + kRecordHeaderSize, length), offset};
  }

  template <typename... Args>
  std::unexpected<Error> Corrupt(size_t offset, fmt::format_string<Args...> format,
                                 Args&&... args) const {
    return CorruptData("{}: offset {}: {}", location_, offset,
                       fmt::format(format, std::forward<Args>(args)...));
  }

 private:
  std::string_view bytes_;
  std::string_view location_;
  size_t offset_ = 0;
};

// Reads the fields of one record's payload; every read is checked against its end.
class PayloadReader {
 public:
  PayloadReader(const RecordReader& file, const Record& record) : file_(file), record_(record) {}

  Result<uint32_t> U32() {
    FLOE_ASSIGN_OR_RETURN(std::string_view bytes, Take(4));
    return GetU32(bytes);
  }
  Result<uint64_t> U64() {
    FLOE_ASSIGN_OR_RETURN(std::string_view bytes, Take(8));
    return GetU64(bytes);
  }
  Result<uint8_t> U8() {
    FLOE_ASSIGN_OR_RETURN(std::string_view bytes, Take(1));
    return static_cast<uint8_t>(bytes[0]);
  }
  Result<std::string> String() {
    FLOE_ASSIGN_OR_RETURN(uint32_t length, U32());
    FLOE_ASSIGN_OR_RETURN(std::string_view bytes, Take(length));
    return std::string(bytes);
  }
  Status ExpectEnd() const {
    if (position_ != record_.payload.size()) {
      return file_.Corrupt(record_.offset, "{} stray bytes at the end of a record",
                           record_.payload.size() - position_);
    }
    return Ok();
  }

 private:
  Result<std::string_view> Take(size_t n) {
    if (n > record_.payload.size() - position_) {
      return file_.Corrupt(record_.offset, "record payload ends inside a field");
    }
    std::string_view bytes = record_.payload.substr(position_, n);
    position_ += n;
    return bytes;
  }

  const RecordReader& file_;
  const Record& record_;
  size_t position_ = 0;
};

}  // namespace

Result<std::string> EncodeStateFile(const std::map<std::string, OperatorState>& operators) {
  std::string out;
  PutFileHeader(out, kStateMagic);
  std::string payload;
  for (const auto& [name, state] : operators) {
    payload.clear();
    FLOE_RETURN_IF_ERROR(PutString(payload, name, "operator name"));
    PutU32(payload, static_cast<uint32_t>(state.subtasks.size()));
    FLOE_RETURN_IF_ERROR(PutRecord(out, kOperatorRecord, payload, "operator"));
    for (const auto& entries : state.subtasks) {
      payload.clear();
      PutU32(payload, static_cast<uint32_t>(entries.size()));
      FLOE_RETURN_IF_ERROR(PutRecord(out, kSubtaskRecord, payload, "subtask"));
      for (const std::string& entry : entries) {
        FLOE_RETURN_IF_ERROR(
            PutRecord(out, kEntryRecord, entry, fmt::format("a state entry of '{}'", name)));
      }
    }
  }
  return out;
}

Status DecodeStateFile(std::string_view bytes, std::string_view location,
                       std::map<std::string, OperatorState>& operators) {
  RecordReader file(bytes, location);
  FLOE_RETURN_IF_ERROR(file.ReadHeader(kStateMagic));
  while (!file.AtEnd()) {
    FLOE_ASSIGN_OR_RETURN(Record record, file.Next());
    if (record.type != kOperatorRecord) {
      return file.Corrupt(record.offset, "expected an operator record, found type {}",
                          static_cast<int>(record.type));
    }
    PayloadReader fields(file, record);
    FLOE_ASSIGN_OR_RETURN(std::string name, fields.String());
    FLOE_ASSIGN_OR_RETURN(uint32_t subtasks, fields.U32());
    FLOE_RETURN_IF_ERROR(fields.ExpectEnd());
    auto [it, inserted] = operators.try_emplace(name);
    if (!inserted) return file.Corrupt(record.offset, "operator '{}' appears twice", name);
    OperatorState& state = it->second;
    // No reserve from the counts: the records must be there, so the file's size bounds memory.
    for (uint32_t s = 0; s < subtasks; ++s) {
      if (file.AtEnd()) {
        return file.Corrupt(bytes.size(), "the file ends inside operator '{}'", name);
      }
      FLOE_ASSIGN_OR_RETURN(Record subtask, file.Next());
      if (subtask.type != kSubtaskRecord) {
        return file.Corrupt(subtask.offset, "expected a subtask record, found type {}",
                            static_cast<int>(subtask.type));
      }
      PayloadReader subtask_fields(file, subtask);
      FLOE_ASSIGN_OR_RETURN(uint32_t entries, subtask_fields.U32());
      FLOE_RETURN_IF_ERROR(subtask_fields.ExpectEnd());
      std::vector<std::string>& out = state.subtasks.emplace_back();
      for (uint32_t e = 0; e < entries; ++e) {
        if (file.AtEnd()) {
          return file.Corrupt(bytes.size(), "the file ends inside operator '{}'", name);
        }
        FLOE_ASSIGN_OR_RETURN(Record entry, file.Next());
        if (entry.type != kEntryRecord) {
          return file.Corrupt(entry.offset, "expected a state entry record, found type {}",
                              static_cast<int>(entry.type));
        }
        out.emplace_back(entry.payload);
      }
    }
  }
  return Ok();
}

std::string EncodeCompletionRecord(const CompletionRecord& record) {
  std::string payload;
  PutU64(payload, static_cast<uint64_t>(record.checkpoint_id));
  PutU64(payload, static_cast<uint64_t>(record.timestamp_ms));
  payload.push_back(record.savepoint ? 1 : 0);
  // Job and file names are short strings the storage makes: they always fit.
  (void)PutString(payload, record.job_name, "job name");
  PutU32(payload, static_cast<uint32_t>(record.state_files.size()));
  for (const StateFileInfo& file : record.state_files) {
    (void)PutString(payload, file.name, "state file name");
    PutU64(payload, file.size);
    PutU32(payload, file.crc32c);
  }
  std::string out;
  PutFileHeader(out, kCompletionMagic);
  (void)PutRecord(out, kCompletionRecord, payload, "completion record");
  return out;
}

Result<CompletionRecord> DecodeCompletionRecord(std::string_view bytes, std::string_view location) {
  RecordReader file(bytes, location);
  FLOE_RETURN_IF_ERROR(file.ReadHeader(kCompletionMagic));
  if (file.AtEnd()) return file.Corrupt(bytes.size(), "no completion record");
  FLOE_ASSIGN_OR_RETURN(Record record, file.Next());
  if (record.type != kCompletionRecord) {
    return file.Corrupt(record.offset, "expected a completion record, found type {}",
                        static_cast<int>(record.type));
  }
  PayloadReader fields(file, record);
  CompletionRecord out;
  FLOE_ASSIGN_OR_RETURN(uint64_t id, fields.U64());
  FLOE_ASSIGN_OR_RETURN(uint64_t timestamp, fields.U64());
  FLOE_ASSIGN_OR_RETURN(uint8_t savepoint, fields.U8());
  if (savepoint > 1) return file.Corrupt(record.offset, "savepoint flag {}", savepoint);
  out.checkpoint_id = static_cast<int64_t>(id);
  out.timestamp_ms = static_cast<int64_t>(timestamp);
  out.savepoint = savepoint == 1;
  FLOE_ASSIGN_OR_RETURN(out.job_name, fields.String());
  FLOE_ASSIGN_OR_RETURN(uint32_t count, fields.U32());
  for (uint32_t i = 0; i < count; ++i) {
    StateFileInfo info;
    FLOE_ASSIGN_OR_RETURN(info.name, fields.String());
    FLOE_ASSIGN_OR_RETURN(info.size, fields.U64());
    FLOE_ASSIGN_OR_RETURN(info.crc32c, fields.U32());
    // A plain name, so that a record can never point outside its folder.
    if (info.name.empty() || info.name == "." || info.name == ".." ||
        info.name.find('/') != std::string::npos) {
      return file.Corrupt(record.offset, "bad state file name '{}'", info.name);
    }
    out.state_files.push_back(std::move(info));
  }
  FLOE_RETURN_IF_ERROR(fields.ExpectEnd());
  if (!file.AtEnd()) return file.Corrupt(record.offset, "bytes after the completion record");
  return out;
}

}  // namespace floe::stream
