// Generated rows into an Iceberg table, exactly once: datagen -> IcebergSink in streaming mode with
// checkpoints. Run it again with the same arguments after a crash and it resumes from its latest
// checkpoint; once it has completed, running it again adds nothing.
//
//   datagen_to_iceberg --table DIR --rows N --rate R --checkpoint-interval MS [--upsert]
//                      [--keys K] [--parallelism P] [--checkpoint-dir D] [--seed S]
//                      [--catalog k=v ...]
//
// Row i (0 <= i < N) is (id, seq, data) with seq = i, id = i % K (K defaults to N: every row its
// own key) and data the datagen's random string for (seed, "data", i). The table (hadoop folder
// layout, format v2, id its identifier field) is created when missing. With --upsert the table
// ends with the latest row of each id; K must then be a multiple of P, so that every row of one
// id comes from one reader, in generation order. With --catalog (each a catalog property, as
// `floe --catalog` takes them: catalog-type=rest, uri=...), --table is db.table in that catalog,
// and --checkpoint-dir is required.

#include <charconv>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/spec/schema.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/iceberg_sink.h"

namespace {

using namespace floe;
using namespace floe::stream;

struct Args {
  std::string table;
  int64_t rows = -1;
  int64_t rate = 0;
  int64_t checkpoint_interval_ms = 0;
  bool upsert = false;
  int64_t keys = 0;
  int parallelism = 1;
  std::string checkpoint_dir;
  int64_t seed = 0;
  StringMap catalog;  // --catalog k=v; empty: --table is a folder
};

Result<int64_t> ParseNumber(const std::string& flag, const std::string& text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    return InvalidArgument("{}: '{}' is not a non-negative number", flag, text);
  }
  return value;
}

Result<Args> ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--upsert") {
      args.upsert = true;
      continue;
    }
    if (i + 1 >= argc) return InvalidArgument("{} needs a value", flag);
    std::string value = argv[++i];
    if (flag == "--table") {
      args.table = value;
    } else if (flag == "--checkpoint-dir") {
      args.checkpoint_dir = value;
    } else if (flag == "--catalog") {
      const size_t equals = value.find('=');
      if (equals == std::string::npos || equals == 0) {
        return InvalidArgument("--catalog wants key=value, got '{}'", value);
      }
      args.catalog[value.substr(0, equals)] = value.substr(equals + 1);
    } else {
      FLOE_ASSIGN_OR_RETURN(int64_t number, ParseNumber(flag, value));
      if (flag == "--rows") {
        args.rows = number;
      } else if (flag == "--rate") {
        args.rate = number;
      } else if (flag == "--checkpoint-interval") {
        args.checkpoint_interval_ms = number;
      } else if (flag == "--keys") {
        args.keys = number;
      } else if (flag == "--parallelism") {
        args.parallelism = static_cast<int>(number);
      } else if (flag == "--seed") {
        args.seed = number;
      } else {
        return InvalidArgument("unknown option {}", flag);
      }
    }
  }
  if (args.table.empty() || args.rows < 1 || args.checkpoint_interval_ms < 1) {
    return InvalidArgument("--table, --rows (>= 1) and --checkpoint-interval (>= 1) are required");
  }
  if (args.parallelism < 1) return InvalidArgument("--parallelism must be at least 1");
  if (args.keys == 0) args.keys = args.rows;
  if (args.upsert && args.keys % args.parallelism != 0) {
    return InvalidArgument("--keys {} must be a multiple of --parallelism {} with --upsert",
                           args.keys, args.parallelism);
  }
  if (!args.catalog.empty() && (args.checkpoint_dir.empty() || args.table.find('.') == 0 ||
                                args.table.find('.') == std::string::npos)) {
    return InvalidArgument("with --catalog, --table is db.table and --checkpoint-dir is required");
  }
  if (args.checkpoint_dir.empty()) args.checkpoint_dir = args.table + ".checkpoints";
  return args;
}

// db.table of --table with --catalog.
catalog::TableIdentifier CatalogIdent(const Args& args) {
  const size_t dot = args.table.rfind('.');
  return {catalog::Namespace{{args.table.substr(0, dot)}}, args.table.substr(dot + 1)};
}

// The table of --table: a folder, or db.table in the --catalog catalog.
TableLoader Loader(const Args& args) {
  if (args.catalog.empty()) return TableLoader::FromFolder(args.table);
  return TableLoader::FromCatalog("lake", args.catalog, CatalogIdent(args));
}

Status CreateTableIfMissing(const Args& args) {
  const TableLoader loader = Loader(args);
  if (loader.Load()) return {};
  std::shared_ptr<catalog::Catalog> catalog;
  catalog::TableIdentifier ident;
  if (args.catalog.empty()) {
    FLOE_ASSIGN_OR_RETURN(catalog::FolderTable table, catalog::OpenTableFolder(args.table));
    catalog = std::move(table.catalog);
    ident = std::move(table.ident);
  } else {
    FLOE_ASSIGN_OR_RETURN(catalog, loader.LoadCatalog());
    ident = CatalogIdent(args);
  }
  Status ns = catalog->CreateNamespace(ident.ns, {});
  if (!ns && ns.error().kind() != ErrorKind::kAlreadyExists) return ns;
  catalog::CreateTableRequest request;
  using namespace floe::types;
  request.schema = std::make_shared<Schema>(
      std::vector<NestedField>{Required(1, "id", Long()), Required(2, "seq", Long()),
                               Optional(3, "data", String())},
      0, std::vector<int32_t>{1});
  request.properties.emplace("format-version", "2");
  auto created = catalog->CreateTable(ident, request);
  if (!created && created.error().kind() != ErrorKind::kAlreadyExists) {
    return std::unexpected(created.error());
  }
  return {};
}

BatchSchemaPtr TableRowSchema() {
  return std::make_shared<const BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), false, 1},
                         {"seq", DataType::Int64(), false, 2},
                         {"data", DataType::String(), true, 3}});
}

// (seq, data) -> (seq % keys, seq, data).
class KeyRows : public Operator {
 public:
  explicit KeyRows(int64_t keys) : keys_(keys) {}
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    std::vector<Value> ids;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      ids.emplace_back(batch.column(0).Value<int64_t>(i) % keys_);
    }
    BatchSchemaPtr schema = TableRowSchema();
    FLOE_ASSIGN_OR_RETURN(Array id, MakeArray(schema->field(0).type, ids));
    FLOE_ASSIGN_OR_RETURN(RecordBatch keyed,
                          RecordBatch::Make(schema, {id, batch.column(0), batch.column(1)}));
    return output.Emit(std::move(keyed));
  }

 private:
  int64_t keys_;
};

Status Run(const Args& args) {
  FLOE_RETURN_IF_ERROR(CreateTableIfMissing(args));
  StreamEnvironment env({.parallelism = args.parallelism,
                         .checkpoint_interval_ms = args.checkpoint_interval_ms,
                         .checkpoint_dir = args.checkpoint_dir});
  auto generated = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"seq", DataType::Int64(), false}, {"data", DataType::String(), true}});
  int64_t batch_size = args.rate > 0 ? std::clamp<int64_t>(args.rate / 20, 1, 1000) : 1000;
  FLOE_ASSIGN_OR_RETURN(
      std::shared_ptr<DatagenSource> datagen,
      DatagenSource::Make(generated, {{"number-of-rows", std::to_string(args.rows)},
                                      {"rows-per-second", std::to_string(args.rate)},
                                      {"seed", std::to_string(args.seed)},
                                      {"batch-size", std::to_string(batch_size)},
                                      {"split-count", std::to_string(args.parallelism)},
                                      {"fields.seq.kind", "sequence"},
                                      {"fields.seq.start", "0"},
                                      {"fields.seq.end", std::to_string(args.rows - 1)}}));
  DataStream rows = env.FromSource(datagen, "datagen");
  int64_t keys = args.keys;
  DataStream keyed = rows.Transform(
      "key", TableRowSchema(),
      [keys](int) -> Result<std::unique_ptr<Operator>> { return std::make_unique<KeyRows>(keys); });
  IcebergSink::Builder sink = IcebergSink::ForRows(keyed);
  sink.TableLoader(Loader(args));
  if (args.upsert) sink.Upsert(true).EqualityFieldColumns({"id"});
  FLOE_RETURN_IF_ERROR(sink.Append());
  FLOE_ASSIGN_OR_RETURN(JobResult result, env.Execute("datagen_to_iceberg"));
  std::cout << "done: " << args.rows << " rows, " << result.checkpoints_completed
            << " checkpoints\n";
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  Result<Args> args = ParseArgs(argc, argv);
  Status status = args ? Run(*args) : Status(std::unexpected(args.error()));
  if (!status) {
    std::cerr << "datagen_to_iceberg: " << status.error().ToString() << "\n";
    return 1;
  }
  return 0;
}
