#include "floe/batch/arrow_c_stream.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/make_batch.h"
#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

// The layouts checked below are those of the Arrow C Data Interface and C Stream Interface
// specifications: a record batch is a struct array (one buffer, the validity) with one child per
// column; a string child has the buffers validity, int32 offsets and data; a list child has
// validity and offsets, and its elements as one child; validity bit i set means row i is present,
// buffers[0] may be null when null_count is 0. The stream's get_next marks the end with a released
// array, and its get_last_error may return NULL while nothing failed.

BatchSchemaPtr Schema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false, 1},
      {"name", DataType::String(), true, 2},
      {"tags", DataType::List(Field{"element", DataType::Int32(), true, 4}), true, 3},
  });
}

// Rows ids first..first+n-1: name null on every third row, tags [id, null] on odd ids, null on
// ids divisible by 4, [] otherwise.
RecordBatch Rows(int64_t first, int64_t n) {
  std::vector<std::vector<Value>> columns(3);
  for (int64_t id = first; id < first + n; ++id) {
    columns[0].push_back(Value(id));
    columns[1].push_back(id % 3 == 0 ? Value() : Value(fmt::format("n{}", id)));
    if (id % 4 == 0) {
      columns[2].push_back(Value());
    } else if (id % 2 == 1) {
      columns[2].push_back(Value(ListValue{{Value(id), Value()}}));
    } else {
      columns[2].push_back(Value(ListValue{}));
    }
  }
  auto batch = MakeBatch(Schema(), columns);
  EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
  return *batch;
}

bool Bit(const void* bitmap, int64_t i) {
  return (static_cast<const uint8_t*>(bitmap)[i / 8] >> (i % 8)) & 1;
}

// A producer over given batches (then the end), counting how often it ran.
struct Batches {
  std::vector<RecordBatch> batches;
  size_t next = 0;
  int calls = 0;
};

BatchProducer Over(std::shared_ptr<Batches> state) {
  return [state]() -> Result<std::optional<RecordBatch>> {
    ++state->calls;
    if (state->next == state->batches.size()) return std::nullopt;
    return state->batches[state->next++];
  };
}

// Releases a stream at scope end unless the test did.
struct StreamGuard {
  ArrowArrayStream stream{};
  ~StreamGuard() {
    if (stream.release != nullptr) stream.release(&stream);
  }
};

// get_next fails with `code`, leaves its array released, and get_last_error holds `text`.
void ExpectNextFails(ArrowArrayStream& stream, int code, const char* text) {
  ArrowArray array{};
  EXPECT_EQ(stream.get_next(&stream, &array), code);
  EXPECT_EQ(array.release, nullptr);
  const char* message = stream.get_last_error(&stream);
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::strstr(message, text), nullptr) << message;
}

TEST(ArrowCStreamTest, SchemaHasOneChildPerColumn) {
  StreamGuard guard;
  ExportBatchStream(Schema(), Over(std::make_shared<Batches>()), &guard.stream);
  ASSERT_NE(guard.stream.release, nullptr);
  EXPECT_EQ(guard.stream.get_last_error(&guard.stream), nullptr);

  ArrowSchema schema{};
  ASSERT_EQ(guard.stream.get_schema(&guard.stream, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 3);
  EXPECT_STREQ(schema.children[0]->format, "l");
  EXPECT_STREQ(schema.children[0]->name, "id");
  EXPECT_EQ(schema.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_STREQ(schema.children[1]->format, "u");
  EXPECT_STREQ(schema.children[1]->name, "name");
  EXPECT_EQ(schema.children[1]->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
  EXPECT_STREQ(schema.children[2]->format, "+l");
  ASSERT_EQ(schema.children[2]->n_children, 1);
  EXPECT_STREQ(schema.children[2]->children[0]->format, "i");

  // The schema is the consumer's: it imports (and so releases) as the stream's columns.
  FLOE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, ImportType(&schema));
  EXPECT_EQ(schema.release, nullptr);
  EXPECT_EQ(type->fields(), Schema()->fields());

  // A second call gives a second, independent schema.
  ArrowSchema again{};
  ASSERT_EQ(guard.stream.get_schema(&guard.stream, &again), 0);
  ASSERT_NE(again.release, nullptr);
  again.release(&again);
  EXPECT_EQ(again.release, nullptr);
}

TEST(ArrowCStreamTest, BatchesAreExportedZeroCopyWithOffsetsAndValidity) {
  auto state = std::make_shared<Batches>();
  state->batches = {Rows(0, 10), Rows(100, 40).Slice(3, 20)};
  const RecordBatch& second = state->batches[1];
  StreamGuard guard;
  ExportBatchStream(Schema(), Over(state), &guard.stream);

  ArrowArray first{};
  ASSERT_EQ(guard.stream.get_next(&guard.stream, &first), 0);
  ASSERT_NE(first.release, nullptr);
  EXPECT_EQ(first.length, 10);
  EXPECT_EQ(first.null_count, 0);
  EXPECT_EQ(first.n_buffers, 1);
  ASSERT_EQ(first.n_children, 3);
  first.release(&first);
  EXPECT_EQ(first.release, nullptr);

  ArrowArray array{};
  ASSERT_EQ(guard.stream.get_next(&guard.stream, &array), 0);
  EXPECT_EQ(array.length, 20);
  ASSERT_EQ(array.n_children, 3);

  // id: no nulls, the slice's offset into floe's own values buffer.
  const ArrowArray& ids = *array.children[0];
  EXPECT_EQ(ids.n_buffers, 2);
  EXPECT_EQ(ids.null_count, 0);
  EXPECT_EQ(ids.buffers[0], nullptr);
  EXPECT_EQ(ids.buffers[1], second.column(0).values().data());
  for (int64_t i = 0; i < ids.length; ++i) {
    EXPECT_EQ(static_cast<const int64_t*>(ids.buffers[1])[ids.offset + i], 103 + i);
  }

  // name: validity, offsets and data, the data buffer floe's (not a copy).
  const ArrowArray& names = *array.children[1];
  ASSERT_EQ(names.n_buffers, 3);
  EXPECT_EQ(names.buffers[2], second.column(1).data().data());
  const auto* offsets = static_cast<const int32_t*>(names.buffers[1]);
  const char* chars = static_cast<const char*>(names.buffers[2]);
  int64_t nulls = 0;
  for (int64_t i = 0; i < names.length; ++i) {
    const int64_t id = 103 + i;
    const bool present = Bit(names.buffers[0], names.offset + i);
    EXPECT_EQ(present, id % 3 != 0) << id;
    nulls += present ? 0 : 1;
    if (!present) continue;
    const int32_t begin = offsets[names.offset + i];
    const int32_t end = offsets[names.offset + i + 1];
    EXPECT_EQ(std::string(chars + begin, static_cast<size_t>(end - begin)), fmt::format("n{}", id));
  }
  EXPECT_EQ(names.null_count, nulls);

  // tags: list offsets into one child of elements.
  const ArrowArray& tags = *array.children[2];
  ASSERT_EQ(tags.n_buffers, 2);
  ASSERT_EQ(tags.n_children, 1);
  const ArrowArray& elements = *tags.children[0];
  const auto* list_offsets = static_cast<const int32_t*>(tags.buffers[1]);
  for (int64_t i = 0; i < tags.length; ++i) {
    const int64_t id = 103 + i;
    const bool present = Bit(tags.buffers[0], tags.offset + i);
    EXPECT_EQ(present, id % 4 != 0) << id;
    const int32_t begin = list_offsets[tags.offset + i];
    const int32_t size = list_offsets[tags.offset + i + 1] - begin;
    if (!present) continue;
    ASSERT_EQ(size, id % 2 == 1 ? 2 : 0) << id;
    if (size == 0) continue;
    const int64_t at = elements.offset + begin;
    EXPECT_TRUE(Bit(elements.buffers[0], at));
    EXPECT_EQ(static_cast<const int32_t*>(elements.buffers[1])[at], id);
    EXPECT_FALSE(Bit(elements.buffers[0], at + 1));
  }

  // The end: a released array, and the producer is not asked again after it.
  ArrowArray end{};
  end.release = reinterpret_cast<void (*)(ArrowArray*)>(1);  // overwritten by get_next
  ASSERT_EQ(guard.stream.get_next(&guard.stream, &end), 0);
  EXPECT_EQ(end.release, nullptr);
  EXPECT_EQ(state->calls, 3);

  // The array outlives the stream: it holds floe's buffers itself.
  const std::string expected = std::string(second.column(1).GetView(1));
  guard.stream.release(&guard.stream);
  EXPECT_EQ(guard.stream.release, nullptr);
  const auto* names_after = static_cast<const ArrowArray*>(array.children[1]);
  const auto* offsets_after = static_cast<const int32_t*>(names_after->buffers[1]);
  const int64_t row = names_after->offset + 1;
  EXPECT_EQ(std::string(static_cast<const char*>(names_after->buffers[2]) + offsets_after[row],
                        static_cast<size_t>(offsets_after[row + 1] - offsets_after[row])),
            expected);
  array.release(&array);
  EXPECT_EQ(array.release, nullptr);
}

TEST(ArrowCStreamTest, ReleasingTheStreamDestroysTheProducer) {
  auto state = std::make_shared<Batches>();
  std::weak_ptr<Batches> watched = state;
  ArrowArrayStream stream{};
  ExportBatchStream(Schema(), Over(std::move(state)), &stream);
  EXPECT_FALSE(watched.expired());
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_TRUE(watched.expired());
}

TEST(ArrowCStreamTest, ProducerErrorsAreEioWithTheMessage) {
  StreamGuard guard;
  int calls = 0;
  ExportBatchStream(
      Schema(),
      [&calls]() -> Result<std::optional<RecordBatch>> {
        if (++calls == 1) return Rows(0, 2);
        return IOError("the disk went away at file f.parquet");
      },
      &guard.stream);
  ArrowArray array{};
  ASSERT_EQ(guard.stream.get_next(&guard.stream, &array), 0);
  array.release(&array);
  EXPECT_EQ(guard.stream.get_last_error(&guard.stream), nullptr);

  ExpectNextFails(guard.stream, EIO, "the disk went away at file f.parquet");
}

TEST(ArrowCStreamTest, ABatchOfAnotherSchemaIsEinval) {
  auto other = MakeBatch(
      std::make_shared<const BatchSchema>(std::vector<Field>{{"id", DataType::Int32(), false, 1}}),
      {{Value(int64_t{1})}});
  FLOE_ASSERT_OK(other);
  auto state = std::make_shared<Batches>();
  state->batches = {*other};
  StreamGuard guard;
  ExportBatchStream(Schema(), Over(state), &guard.stream);
  ExpectNextFails(guard.stream, EINVAL, "a batch of schema (id: int32");
}

TEST(ArrowCStreamTest, ImportReadsWhatExportWroteAndReleasesTheStream) {
  auto state = std::make_shared<Batches>();
  state->batches = {Rows(0, 7), Rows(7, 0), Rows(50, 30).Slice(5, 11)};
  ArrowArrayStream stream{};
  ExportBatchStream(Schema(), Over(state), &stream);
  BatchSchemaPtr schema;
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<RecordBatch> back, ImportBatchStream(&stream, &schema));
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_EQ(*schema, *Schema());
  ASSERT_EQ(back.size(), 3u);
  for (size_t b = 0; b < back.size(); ++b) {
    const RecordBatch& expected = state->batches[b];
    ASSERT_EQ(back[b].num_rows(), expected.num_rows());
    for (int c = 0; c < expected.num_columns(); ++c) {
      EXPECT_TRUE(ArraysEqual(back[b].column(c), expected.column(c))) << b << " " << c;
    }
  }
  // Zero-copy both ways: the imported strings are floe's original buffer.
  EXPECT_EQ(back[2].column(1).data().data(), state->batches[2].column(1).data().data());
}

TEST(ArrowCStreamTest, ImportReportsTheProducersErrors) {
  BatchSchemaPtr schema;
  ArrowArrayStream released{};
  auto none = ImportBatchStream(&released, &schema);
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().kind(), ErrorKind::kInvalidArgument);

  ArrowArrayStream failing{};
  ExportBatchStream(
      Schema(), []() -> Result<std::optional<RecordBatch>> { return IOError("no more data"); },
      &failing);
  auto failed = ImportBatchStream(&failing, &schema);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failing.release, nullptr);  // released on error too
  EXPECT_EQ(failed.error().message(),
            "Arrow stream get_next failed (errno 5): I/O error: no more data")
      << failed.error().message();

  // A stream of plain values, not of record batches.
  ArrowArrayStream ints{};
  ExportBatchStream(Schema(), Over(std::make_shared<Batches>()), &ints);
  ints.get_schema = [](ArrowArrayStream*, ArrowSchema* out) {
    return ExportType(*DataType::Int64(), out).has_value() ? 0 : EINVAL;
  };
  auto not_batches = ImportBatchStream(&ints, &schema);
  ASSERT_FALSE(not_batches.has_value());
  EXPECT_EQ(ints.release, nullptr);
  EXPECT_NE(not_batches.error().message().find("not of record batches"), std::string::npos);
}

}  // namespace
}  // namespace floe
