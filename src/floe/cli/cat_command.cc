#include "floe/cli/cat_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <string>

#include "floe/cli/cat_files.h"
#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

// Whether the file starts with ORC's magic: data files of Hive and Impala tables have names like
// 000000_0, without an extension.
bool StartsAsOrc(const std::string& path) {
  auto input = CommandLineFileIO()->NewInputFile(path);
  if (!input) return false;
  std::byte magic[3];
  auto read = (*input)->ReadAt(0, magic);
  return read && std::memcmp(magic, "ORC", 3) == 0;
}

Status Cat(const std::string& path, bool schema_only, std::FILE* out) {
  if (path.ends_with(".parquet")) {
    if (schema_only)
      return InvalidArgument("{}: --schema is for Avro files; try floe inspect parquet", path);
    return CatParquet(path, out);
  }
  if (path.ends_with(".orc") || StartsAsOrc(path)) {
    if (schema_only)
      return InvalidArgument("{}: --schema is for Avro files; try floe inspect orc", path);
    return CatOrc(path, out);
  }
  // Errors start with the file, as every message of this command does.
  Result<std::string> bytes = CommandLineFileIO()->ReadFile(path);
  if (!bytes) return std::unexpected(std::move(bytes.error().AddContext(path)));
  FLOE_ASSIGN_OR_RETURN(auto reader,
                        avro::ContainerReader::Open(std::as_bytes(std::span(*bytes)), path));
  if (schema_only) {
    // The schema exactly as the writer stored it, every attribute kept, indented for reading.
    std::string_view raw = *reader->Metadata("avro.schema");
    FLOE_ASSIGN_OR_RETURN(Json schema, Json::Parse(raw));
    std::string text = schema.Dump(true);
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), out);
    return Ok();
  }
  const avro::Node& root = reader->writer_schema()->root();
  avro::Datum datum;
  std::string line;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(datum));
    if (!more) break;
    line = avro::DatumToJson(root, datum).Dump();
    line.push_back('\n');
    std::fwrite(line.data(), 1, line.size(), out);
  }
  return Ok();
}

}  // namespace

int RunCat(const std::string& path, bool schema_only, std::FILE* out, std::FILE* err) {
  Status status = Cat(path, schema_only, out);
  std::fflush(out);
  if (!status) {
    std::fprintf(err, "floe cat: %s\n", status.error().message().c_str());
    return kExitBadInput;
  }
  return kExitOk;
}

void AddCatCommand(CLI::App& app, int& exit_code) {
  CLI::App* cat =
      app.add_subcommand("cat", "Print the rows of an Avro, Parquet or ORC file as JSON lines");
  auto path = std::make_shared<std::string>();
  auto schema_only = std::make_shared<bool>(false);
  cat->add_option("file", *path, "An Avro object container file, a .parquet file or an ORC file")
      ->required();
  cat->add_flag("--schema", *schema_only, "Print the writer schema instead of the records");
  cat->callback(
      [path, schema_only, &exit_code] { exit_code = RunCat(*path, *schema_only, stdout, stderr); });
}

}  // namespace floe::cli
