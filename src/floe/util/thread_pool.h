#pragma once

// A fixed set of worker threads for CPU-bound work that the caller waits for (reading manifests
// while planning a scan, decoding files, runtime operators). Submit returns a future; ParallelFor
// runs a function over the indices [0, n) and waits, with the calling thread helping so that a
// pool of zero workers (or a pool whose workers are busy) still makes progress and nested use
// never deadlocks.
//
// Tasks must not throw (floe reports errors as values); a task that throws terminates the
// process. The destructor finishes the queued tasks, then joins the workers. Thread-safe.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <type_traits>
#include <vector>

namespace floe {

class ThreadPool {
 public:
  // workers == 0 runs everything on the threads that call ParallelFor (Submit then runs the task
  // at once, on the caller).
  explicit ThreadPool(size_t workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // std::thread::hardware_concurrency(), at least 1.
  static size_t DefaultWorkers();

  size_t workers() const { return threads_.size(); }

  template <typename F>
  auto Submit(F&& task) -> std::future<std::invoke_result_t<F&>> {
    using R = std::invoke_result_t<F&>;
    auto packaged = std::make_shared<std::packaged_task<R()>>(std::forward<F>(task));
    std::future<R> future = packaged->get_future();
    Enqueue([packaged] { (*packaged)(); });
    return future;
  }

  // Calls body(i) once for every i in [0, n), on the workers and the caller, and returns when all
  // calls have returned. Indices are handed out in increasing order; the order in which calls
  // finish is unspecified, so callers that need a deterministic result write into slot i.
  void ParallelFor(size_t n, const std::function<void(size_t)>& body);

 private:
  void Enqueue(std::function<void()> task);
  void WorkerLoop();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::queue<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace floe
