#pragma once

// The bytes of checkpoint files (docs/formats/checkpoint.md): state files, which hold operator
// state as framed records, and the completion record, whose presence makes a checkpoint exist.
// Every file starts with a magic and a version; every record carries its length and a CRC-32C.
//
// Decoding never trusts a length before checking it against the bytes that remain, so a corrupt
// file costs no more memory than its own size. Errors are kCorruptData naming the file and the
// offset of the bad record (kUnsupported for a newer format version).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floe/stream/checkpoint_storage.h"
#include "floe/util/error.h"

namespace floe::stream {

struct StateFileInfo {
  std::string name;  // relative to the checkpoint folder
  uint64_t size = 0;
  uint32_t crc32c = 0;  // of the whole file
};

struct CompletionRecord {
  int64_t checkpoint_id = 0;
  int64_t timestamp_ms = 0;
  bool savepoint = false;
  std::string job_name;
  std::vector<StateFileInfo> state_files;
};

// kInvalidArgument when a name or entry does not fit a record (4 GiB).
Result<std::string> EncodeStateFile(const std::map<std::string, OperatorState>& operators);
// Adds the operators of one state file to `operators` (kCorruptData for one already there).
Status DecodeStateFile(std::string_view bytes, std::string_view location,
                       std::map<std::string, OperatorState>& operators);

std::string EncodeCompletionRecord(const CompletionRecord& record);
Result<CompletionRecord> DecodeCompletionRecord(std::string_view bytes, std::string_view location);

}  // namespace floe::stream
