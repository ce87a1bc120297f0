// The session's job manager on real runtime jobs: an unbounded datagen job runs in the background
// until it is stopped, a bounded one finishes with all its rows, a failing one keeps its error,
// and a stop with savepoint leaves a savepoint the runtime can load.

#include "floe/sql/statements/jobs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "floe/io/local_file_io.h"
#include "floe/stream/checkpoint_storage.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/testing/testing.h"

namespace floe::sql {
namespace {

BatchSchemaPtr IdSchema() {
  return std::make_shared<BatchSchema>(
      std::vector<Field>{Field{.name = "id", .type = DataType::Int64(), .nullable = false}});
}

// A datagen job of ids 0.. (bounded to `rows` when given) collected in memory.
std::unique_ptr<stream::StreamEnvironment> DatagenJob(
    std::optional<int64_t> rows, std::shared_ptr<stream::CollectedBatches>* collected,
    stream::ExecutionConfig config = {}) {
  std::map<std::string, std::string> options{{"fields.id.kind", "sequence"},
                                             {"fields.id.start", "0"},
                                             {"fields.id.end", "1000000000"},
                                             {"rows-per-second", "2000"},
                                             {"batch-size", "100"}};
  if (rows) options["number-of-rows"] = std::to_string(*rows);
  auto env = std::make_unique<stream::StreamEnvironment>(config);
  auto source = stream::DatagenSource::Make(IdSchema(), options).value();
  *collected = env->Collect(env->FromSource(source, "ids"), "collect");
  return env;
}

void WaitForRows(const stream::CollectedBatches& collected, int64_t rows) {
  while (collected.num_rows() < rows) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

TEST(JobManagerTest, BoundedJobFinishesWithAllItsRows) {
  JobManager jobs;
  std::shared_ptr<stream::CollectedBatches> collected;
  const std::string id = jobs.Submit("bounded", DatagenJob(500, &collected));
  EXPECT_EQ(id.size(), 32U);
  FLOE_ASSERT_OK_AND_ASSIGN(JobStatus status, jobs.Wait(id));
  EXPECT_EQ(status.state, JobState::kFinished);
  EXPECT_EQ(status.name, "bounded");
  EXPECT_EQ(collected->num_rows(), 500);
  ASSERT_TRUE(status.end_time_ms.has_value());
  EXPECT_LE(status.start_time_ms, *status.end_time_ms);
  auto stopped = jobs.Stop(id, false);
  ASSERT_FALSE(stopped.has_value());
  EXPECT_NE(stopped.error().message().find("is not running: it is FINISHED"), std::string::npos)
      << stopped.error().message();
}

TEST(JobManagerTest, UnboundedJobRunsUntilStopped) {
  JobManager jobs;
  std::shared_ptr<stream::CollectedBatches> collected;
  const std::string id = jobs.Submit("endless", DatagenJob(std::nullopt, &collected));
  WaitForRows(*collected, 200);
  std::vector<JobStatus> listed = jobs.List();
  ASSERT_EQ(listed.size(), 1U);
  EXPECT_EQ(listed[0].id, id);
  EXPECT_EQ(listed[0].state, JobState::kRunning);
  FLOE_ASSERT_OK_AND_ASSIGN(std::optional<std::string> savepoint, jobs.Stop(id, false));
  EXPECT_FALSE(savepoint.has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(JobStatus status, jobs.Get(id));
  EXPECT_EQ(status.state, JobState::kCanceled);
  EXPECT_EQ(JobStateName(status.state), "CANCELED");
}

TEST(JobManagerTest, StopRightAfterSubmitStopsTheJob) {
  JobManager jobs;
  std::shared_ptr<stream::CollectedBatches> collected;
  const std::string id = jobs.Submit("quick", DatagenJob(std::nullopt, &collected));
  FLOE_ASSERT_OK(jobs.Stop(id, false));
  EXPECT_EQ(jobs.Get(id)->state, JobState::kCanceled);
}

TEST(JobManagerTest, FailedJobKeepsItsError) {
  JobManager jobs;
  auto env = std::make_unique<stream::StreamEnvironment>();
  auto source = stream::DatagenSource::Make(IdSchema(), {{"number-of-rows", "10"}}).value();
  env->FromSource(source, "ids")
      .SinkTo("broken", [](int) -> Result<std::unique_ptr<stream::Operator>> {
        return InvalidArgument("the sink is broken on purpose");
      });
  const std::string id = jobs.Submit("failing", std::move(env));
  FLOE_ASSERT_OK_AND_ASSIGN(JobStatus status, jobs.Wait(id));
  EXPECT_EQ(status.state, JobState::kFailed);
  EXPECT_NE(status.error.find("broken on purpose"), std::string::npos) << status.error;
}

TEST(JobManagerTest, StopWithSavepointWritesALoadableSavepoint) {
  floe::testing::TempDir dir;
  stream::ExecutionConfig config;
  config.checkpoint_interval_ms = 100;
  config.checkpoint_dir = (dir.path() / "checkpoints").string();
  JobManager jobs;
  std::shared_ptr<stream::CollectedBatches> collected;
  const std::string savepoints = (dir.path() / "savepoints").string();
  const std::string id =
      jobs.Submit("saved", DatagenJob(std::nullopt, &collected, config), savepoints);
  WaitForRows(*collected, 100);
  FLOE_ASSERT_OK_AND_ASSIGN(std::optional<std::string> path, jobs.Stop(id, true));
  ASSERT_TRUE(path.has_value());
  EXPECT_TRUE(path->starts_with(savepoints + "/savepoint-" + id.substr(0, 6) + "-")) << *path;
  EXPECT_TRUE(std::filesystem::is_directory(*path)) << *path;
  // Flink's stop-with-savepoint ends the job as FINISHED.
  EXPECT_EQ(jobs.Get(id)->state, JobState::kFinished);
  io::LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto storage,
                            stream::CheckpointStorage::Open(io, config.checkpoint_dir, "saved", 1));
  FLOE_ASSERT_OK_AND_ASSIGN(stream::CompletedCheckpoint loaded, storage->Load(*path));
  EXPECT_TRUE(loaded.savepoint);
  EXPECT_EQ(loaded.job_name, "saved");
}

TEST(JobManagerTest, SavepointNeedsAFolder) {
  JobManager jobs;
  std::shared_ptr<stream::CollectedBatches> collected;
  const std::string id = jobs.Submit("nowhere", DatagenJob(std::nullopt, &collected));
  auto stopped = jobs.Stop(id, true);
  ASSERT_FALSE(stopped.has_value());
  EXPECT_NE(stopped.error().message().find("state.savepoints.dir"), std::string::npos);
  EXPECT_EQ(jobs.Get(id)->state, JobState::kRunning);
  jobs.CancelAll();
  EXPECT_EQ(jobs.Get(id)->state, JobState::kCanceled);
}

TEST(JobManagerTest, UnknownJobAndUniqueNames) {
  JobManager jobs;
  auto missing = jobs.Stop("0123", false);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(jobs.UniqueName("insert-into_a.b.c"), "insert-into_a.b.c");
  std::shared_ptr<stream::CollectedBatches> collected;
  jobs.Submit("insert-into_a.b.c", DatagenJob(1, &collected));
  EXPECT_EQ(jobs.UniqueName("insert-into_a.b.c"), "insert-into_a.b.c-2");
  jobs.WaitAll();
}

}  // namespace
}  // namespace floe::sql
