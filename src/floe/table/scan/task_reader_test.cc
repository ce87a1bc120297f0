#include "floe/table/scan/task_reader.h"

#include <gtest/gtest.h>

#include "floe/batch/value.h"
#include "floe/expr/expression.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/manifest/avro_data_file.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using floe::testing::TempDir;
using floe::testing::TestDataDir;

constexpr int32_t kFilePathId = 2147483546;
constexpr int32_t kPosId = 2147483545;

class TaskReaderTest : public ::testing::Test {
 protected:
  // Writes columns (fields with ids) as a Parquet file and describes it as a data file.
  DataFilePtr Write(const std::string& name, std::vector<Field> fields,
                    std::vector<std::vector<Value>> columns,
                    manifest::FileContent content = manifest::FileContent::kData,
                    std::vector<int32_t> equality_ids = {}) {
    auto schema = std::make_shared<BatchSchema>(fields);
    std::vector<Array> arrays;
    for (size_t i = 0; i < fields.size(); ++i) {
      auto array = MakeArray(fields[i].type, columns[i]);
      EXPECT_TRUE(array) << array.error().ToString();
      arrays.push_back(*array);
    }
    auto batch = RecordBatch::Make(schema, arrays);
    EXPECT_TRUE(batch) << batch.error().ToString();
    const std::string path = (dir_.path() / name).string();
    auto out = io_->NewOutputFile(path);
    auto writer_file = (*out)->Create();
    auto writer = parquet::ParquetWriter::Make(std::move(*writer_file), schema, {});
    EXPECT_TRUE(writer) << writer.error().ToString();
    EXPECT_TRUE((*writer)->Write(*batch));
    auto result = (*writer)->Close();
    EXPECT_TRUE(result) << result.error().ToString();
    auto file = std::make_shared<manifest::DataFile>();
    file->content = content;
    file->file_path = path;
    file->file_format = "parquet";
    file->record_count = result->row_count;
    file->file_size_in_bytes = result->file_size;
    file->equality_ids = std::move(equality_ids);
    return file;
  }

  // The data file as the table first wrote it: id int, name string, score float.
  DataFilePtr WriteData() {
    return Write(
        "data.parquet",
        {Field{"id", DataType::Int32(), false, 1}, Field{"name", DataType::String(), true, 2},
         Field{"score", DataType::Float32(), true, 3}},
        {{1, 2, 3, 4, 5, 6},
         {"a", "b", Value(), "d", "e", "f"},
         {0.5f, 1.5f, 2.5f, Value(), 4.5f, 5.5f}});
  }

  // The evolved table: id promoted to long, name renamed, score promoted to double, a new column
  // with an initial default and one without.
  SchemaPtr Evolved() {
    NestedField added = types::Optional(4, "level", types::Int());
    added.initial_default = Json(int64_t{7});
    return std::make_shared<const Schema>(
        std::vector<NestedField>{types::Required(1, "id", types::Long()),
                                 types::Optional(2, "full_name", types::String()),
                                 types::Optional(3, "score", types::Double()), added,
                                 types::Optional(5, "note", types::String())},
        1);
  }

  std::vector<std::string> ReadRows(const FileScanTask& task, SchemaPtr projected = nullptr) {
    SchemaPtr schema = Evolved();
    TaskReader reader(io_, schema, projected ? projected : schema);
    std::vector<std::string> rows;
    auto status = reader.Read(task, [&](RecordBatch batch) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(RowView(batch, i).ToJson());
      return Ok();
    });
    EXPECT_TRUE(status) << status.error().ToString();
    return rows;
  }

  FileScanTask Task(DataFilePtr data) {
    FileScanTask task;
    task.length = data->file_size_in_bytes;
    task.data_file = std::move(data);
    task.residual = expr::True();
    return task;
  }

  TempDir dir_;
  std::shared_ptr<io::FileIO> io_ = std::make_shared<io::LocalFileIO>();
};

TEST_F(TaskReaderTest, ProjectsEvolvedSchemaById) {
  auto rows = ReadRows(Task(WriteData()));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0], R"({"id":1,"full_name":"a","score":0.5,"level":7,"note":null})");
  EXPECT_EQ(rows[2], R"({"id":3,"full_name":null,"score":2.5,"level":7,"note":null})");
  EXPECT_EQ(rows[3], R"({"id":4,"full_name":"d","score":null,"level":7,"note":null})");
}

TEST_F(TaskReaderTest, SelectsColumnsAndAppliesResidual) {
  SchemaPtr schema = Evolved();
  SchemaPtr projected = schema->Project({3});
  FileScanTask task = Task(WriteData());
  // The residual reads columns the projection leaves out.
  auto bound = expr::Bind(
      expr::And(expr::GreaterThan("id", Literal::Long(2)), expr::NotNull("full_name")), *schema);
  ASSERT_TRUE(bound);
  task.residual = *bound;
  EXPECT_EQ(
      ReadRows(task, projected),
      (std::vector<std::string>{R"({"score":null})", R"({"score":4.5})", R"({"score":5.5})"}));
}

TEST_F(TaskReaderTest, PositionDeletesOnlyForThisFile) {
  DataFilePtr data = WriteData();
  // Unsorted, with rows for another file and a position past the end.
  DataFilePtr deletes =
      Write("pos-deletes.parquet",
            {Field{"file_path", DataType::String(), false, kFilePathId},
             Field{"pos", DataType::Int64(), false, kPosId}},
            {{data->file_path, "/elsewhere/other.parquet", data->file_path, data->file_path},
             {int64_t{4}, int64_t{0}, int64_t{1}, int64_t{99}}},
            manifest::FileContent::kPositionDeletes);
  FileScanTask task = Task(data);
  task.deletes = {deletes};
  auto rows = ReadRows(task, Evolved()->Project({1}));
  EXPECT_EQ(rows,
            (std::vector<std::string>{R"({"id":1})", R"({"id":3})", R"({"id":4})", R"({"id":6})"}));
}

TEST_F(TaskReaderTest, DeletionVectorFromPuffin) {
  // Rows 0..11; the fixture's vector deletes positions 1, 3, 5, 7, 9 (its README).
  std::vector<Value> ids;
  for (int i = 0; i < 12; ++i) ids.push_back(i);
  DataFilePtr data = Write("dv-data.parquet", {Field{"id", DataType::Int32(), false, 1}}, {ids});
  auto dv = std::make_shared<manifest::DataFile>();
  dv->content = manifest::FileContent::kPositionDeletes;
  dv->file_format = "puffin";
  dv->file_path = (TestDataDir() / "iceberg-go/puffin/testdata/deletion-vector-v1.puffin").string();
  dv->content_offset = 4;
  dv->content_size_in_bytes = 50;
  FileScanTask task = Task(data);
  task.deletes = {dv};
  auto rows = ReadRows(task, Evolved()->Project({1}));
  std::vector<std::string> expected;
  for (int i : {0, 2, 4, 6, 8, 10, 11}) expected.push_back(fmt::format(R"({{"id":{}}})", i));
  EXPECT_EQ(rows, expected);
}

TEST_F(TaskReaderTest, EqualityDeletesWithNullsPromotionAndSeveralIdSets) {
  DataFilePtr data = WriteData();
  // On name: "b" and null (null matches the row whose name is null).
  DataFilePtr by_name =
      Write("eq-name.parquet", {Field{"name", DataType::String(), true, 2}},
            {{"b", Value(), "zzz"}}, manifest::FileContent::kEqualityDeletes, {2});
  // On id, written as long while the data file holds int: compares after promotion.
  DataFilePtr by_id = Write("eq-id.parquet", {Field{"id", DataType::Int64(), false, 1}},
                            {{int64_t{6}}}, manifest::FileContent::kEqualityDeletes, {1});
  // On (id, score): only the pair (4, null) matches.
  DataFilePtr by_pair = Write(
      "eq-pair.parquet",
      {Field{"id", DataType::Int32(), false, 1}, Field{"score", DataType::Float32(), true, 3}},
      {{4, 5}, {Value(), 1.0f}}, manifest::FileContent::kEqualityDeletes, {1, 3});
  FileScanTask task = Task(data);
  task.deletes = {by_name, by_id, by_pair};
  auto rows = ReadRows(task, Evolved()->Project({1}));
  EXPECT_EQ(rows, (std::vector<std::string>{R"({"id":1})", R"({"id":5})"}));
}

// A long key: the set keeps integers, and a data file whose id bounds lie outside the keys' range
// is not probed; inside it, only the rows whose key is in the set go.
TEST_F(TaskReaderTest, IntegerKeysPruneByTheDataFileBounds) {
  auto bounded = std::make_shared<manifest::DataFile>(*WriteData());  // ids 1..6
  bounded->lower_bounds = {{1, Literal::Int(1).ToBinary().value()}};
  bounded->upper_bounds = {{1, Literal::Int(6).ToBinary().value()}};
  DataFilePtr data = bounded;
  SchemaPtr schema = Evolved();
  auto keys = [&](std::vector<Value> ids) {
    auto batch = RecordBatch::Make(
        std::make_shared<BatchSchema>(std::vector<Field>{Field{"id", DataType::Int64(), false, 1}}),
        {MakeArray(DataType::Int64(), ids).value()});
    return EqualityDeleteSet::FromBatches({1}, {batch.value()}, *schema->Project({1})).value();
  };
  auto above = keys({int64_t{7}, int64_t{1000}});
  auto below = keys({int64_t{-5}, int64_t{0}});
  auto inside = keys({int64_t{0}, int64_t{3}, int64_t{1000}});
  EXPECT_EQ(above->size(), 2u);
  EXPECT_FALSE(above->MayMatch(*data, *schema));
  EXPECT_FALSE(below->MayMatch(*data, *schema));
  EXPECT_TRUE(inside->MayMatch(*data, *schema));
  auto unbounded = std::make_shared<manifest::DataFile>(*data);
  unbounded->lower_bounds.clear();
  unbounded->upper_bounds.clear();
  EXPECT_TRUE(above->MayMatch(*unbounded, *schema));  // no bounds: may match

  DataFilePtr eq = Write("eq-ids.parquet", {Field{"id", DataType::Int64(), false, 1}},
                         {{int64_t{0}, int64_t{3}, int64_t{5}, int64_t{1000}}},
                         manifest::FileContent::kEqualityDeletes, {1});
  FileScanTask task = Task(data);
  task.deletes = {eq};
  EXPECT_EQ(ReadRows(task, Evolved()->Project({1})),
            (std::vector<std::string>{R"({"id":1})", R"({"id":2})", R"({"id":4})", R"({"id":6})"}));
}

// Readers sharing a cache read an equality delete file once; a budget the set does not fit in is
// a clear error naming the file.
TEST_F(TaskReaderTest, EqualityDeleteCacheReadsEachFileOnceWithinItsBudget) {
  DataFilePtr data = WriteData();
  DataFilePtr eq = Write("eq-ids.parquet", {Field{"id", DataType::Int64(), false, 1}},
                         {{int64_t{2}, int64_t{4}}}, manifest::FileContent::kEqualityDeletes, {1});
  FileScanTask task = Task(data);
  task.deletes = {eq};
  SchemaPtr schema = Evolved();
  auto cache = std::make_shared<EqualityDeleteCache>();
  TaskReadOptions options;
  options.equality_deletes = cache;
  int64_t rows = 0;
  for (int reader_index = 0; reader_index < 2; ++reader_index) {
    TaskReader reader(io_, schema, schema->Project({1}), options);
    for (int pass = 0; pass < 2; ++pass) {
      FLOE_ASSERT_OK(reader.Read(task, [&](RecordBatch batch) {
        rows += batch.num_rows();
        return Ok();
      }));
      reader.ClearDeleteCache();
    }
  }
  EXPECT_EQ(rows, 4 * 4);
  EXPECT_EQ(cache->files_read(), 1);
  EXPECT_GT(cache->used_bytes(), 0);

  options.equality_deletes = std::make_shared<EqualityDeleteCache>(/*memory_bytes=*/16);
  TaskReader small(io_, schema, schema->Project({1}), options);
  auto status = small.Read(task, [](RecordBatch) { return Ok(); });
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(status.error().message().find("eq-ids.parquet"), std::string::npos)
      << status.error().message();
}

TEST_F(TaskReaderTest, IdentityPartitionValueFillsMissingColumn) {
  DataFilePtr data = Write("part.parquet", {Field{"id", DataType::Int32(), false, 1}}, {{1, 2}});
  auto file = std::make_shared<manifest::DataFile>(*data);
  file->partition = {Literal::String("eu")};
  FileScanTask task = Task(file);
  auto spec = PartitionSpec::Make(*Evolved(), 0,
                                  {PartitionField{{5}, 1000, "note", Transform::Identity()}});
  ASSERT_TRUE(spec) << spec.error().ToString();
  task.spec = *spec;
  EXPECT_EQ(ReadRows(task, Evolved()->Project({1, 5})),
            (std::vector<std::string>{R"({"id":1,"note":"eu"})", R"({"id":2,"note":"eu"})"}));
}

// An Avro data file written with the table's first schema reads through the evolved one, with a
// position delete (Parquet) on it.
TEST_F(TaskReaderTest, AvroDataFileWithPositionDeletes) {
  auto old_schema = std::make_shared<const Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Int()), types::Optional(2, "name", types::String())});
  auto fields = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int32(), false, 1}, Field{"name", DataType::String(), true, 2}});
  std::vector<Value> ids{1, 2, 3}, names{"a", Value(), "c"};
  FLOE_ASSERT_OK_AND_ASSIGN(Array id_array, MakeArray(DataType::Int32(), ids));
  FLOE_ASSERT_OK_AND_ASSIGN(Array name_array, MakeArray(DataType::String(), names));
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(fields, {id_array, name_array}));
  const std::string path = (dir_.path() / "data.avro").string();
  FLOE_ASSERT_OK_AND_ASSIGN(auto out, io_->NewOutputFile(path));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, manifest::AvroDataWriter::Open(*out, old_schema));
  FLOE_ASSERT_OK(writer->Write(batch));
  FLOE_ASSERT_OK_AND_ASSIGN(auto metrics, writer->Close());
  auto data = std::make_shared<manifest::DataFile>();
  data->file_path = path;
  data->file_format = "AVRO";
  data->record_count = metrics.record_count;
  data->file_size_in_bytes = metrics.file_size_in_bytes;
  DataFilePtr deletes = Write("avro-pos.parquet",
                              {Field{"file_path", DataType::String(), false, kFilePathId},
                               Field{"pos", DataType::Int64(), false, kPosId}},
                              {{path}, {int64_t{0}}}, manifest::FileContent::kPositionDeletes);
  FileScanTask task = Task(data);
  task.deletes = {deletes};
  EXPECT_EQ(ReadRows(task), (std::vector<std::string>{
                                R"({"id":2,"full_name":null,"score":null,"level":7,"note":null})",
                                R"({"id":3,"full_name":"c","score":null,"level":7,"note":null})"}));
}

TEST_F(TaskReaderTest, UnsupportedFormatIsAClearError) {
  DataFilePtr data = WriteData();
  auto unknown = std::make_shared<manifest::DataFile>(*data);
  unknown->file_format = "LANCE";
  TaskReader reader(io_, Evolved(), Evolved());
  auto status = reader.Read(Task(unknown), [](RecordBatch) { return Ok(); });
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kUnsupported);
  // A Parquet file the manifest calls ORC: the ORC reader refuses it, naming the file.
  auto mislabeled = std::make_shared<manifest::DataFile>(*data);
  mislabeled->file_format = "ORC";
  auto read = reader.Read(Task(mislabeled), [](RecordBatch) { return Ok(); });
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(read.error().message().find(data->file_path), std::string::npos)
      << read.error().message();
}

}  // namespace
}  // namespace floe::table
