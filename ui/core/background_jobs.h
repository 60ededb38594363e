#pragma once
// The one way ui/ runs work off the GUI thread. A job runs on QtConcurrent's
// pool with a cancel token and a progress reporter; its outcome comes back on
// the GUI thread to the callback given at start() unless the job was dropped
// meanwhile (cancelled, replaced, or its program closed): stale results never
// reach a view. Any exception a job throws becomes the outcome's error (one
// error path); an exception after its token was cancelled counts as cancelled.
// Destroying the helper cancels every job and waits for them, dropped ones
// too, so no job outlives the object that started it.
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <functional>
#include <list>
#include <memory>

#include "engine/base/cancel_token.h"

namespace exportlens::ui {

/// What a job sees on its worker thread.
class JobContext {
 public:
  using ProgressSink = std::function<void(int percent, const QString& stage)>;
  JobContext(std::shared_ptr<CancelToken> token, ProgressSink sink)
      : token_(std::move(token)), sink_(std::move(sink)) {}

  const std::shared_ptr<CancelToken>& token() const { return token_; }
  bool isCancelled() const { return token_->is_cancelled(); }
  /// Throws Cancelled once the job was cancelled.
  void checkCancelled() const {
    if (isCancelled()) throw Cancelled();
  }
  /// `percent` in [0, 100], rounded.
  void progress(double percent, const QString& stage) const { sink_(static_cast<int>(std::lround(percent)), stage); }

 private:
  std::shared_ptr<CancelToken> token_;
  ProgressSink sink_;
};

template <class Result>
struct JobOutcome {
  Result value{};          // what the job made (as far as it got when it failed)
  QString error;           // the job threw: its message
  bool cancelled = false;  // the job stopped because its token was cancelled
  double seconds = 0;      // wall time on the worker

  bool ok() const { return error.isEmpty() && !cancelled; }
};

template <class Result>
class BackgroundJobs {
 public:
  using Work = std::function<void(JobContext& context, Result& out)>;
  using Done = std::function<void(JobOutcome<Result>& outcome)>;
  using Progress = std::function<void(int percent, const QString& stage)>;

  /// `owner` parents the jobs' watchers and is the context of their callbacks.
  explicit BackgroundJobs(QObject* owner) : owner_(owner) {}
  BackgroundJobs(const BackgroundJobs&) = delete;
  BackgroundJobs& operator=(const BackgroundJobs&) = delete;

  ~BackgroundJobs() {
    // Jobs hold copies, but may use what the application owns (fonts): stop
    // and wait for all of them before the owner goes.
    for (Job& job : jobs_) job.token->cancel();
    for (Job& job : jobs_) {
      job.watcher->waitForFinished();
      delete job.watcher;  // with it, its queued signals: no callback after this
    }
  }

  /// Progress of the newest live job (a dropped job's progress is not reported).
  void onProgress(Progress progress) { progress_ = std::move(progress); }
  /// Called whenever a job's thread ends, dropped or not (after its Done).
  void onSettled(std::function<void()> settled) { settled_ = std::move(settled); }

  /// Runs `work` on a worker; `done` gets its outcome unless it is dropped first.
  void start(Work work, Done done) {
    auto token = std::make_shared<CancelToken>();
    auto* watcher = new QFutureWatcher<JobOutcome<Result>>(owner_);
    jobs_.push_back({watcher, token, false});
    QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, owner_, [this, watcher](int value) {
      if (progress_ && isNewestLive(watcher)) progress_(value, watcher->progressText());
    });
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner_,
                     [this, watcher, done = std::move(done)] { finish(watcher, done); });
    watcher->setFuture(QtConcurrent::run(
        [work = std::move(work), token](QPromise<JobOutcome<Result>>& promise) { run(promise, work, token); }));
  }

  /// Cancels every live job and drops its result. True when one was live.
  bool dropAll() {
    bool any = false;
    for (Job& job : jobs_) {
      if (job.dropped) continue;
      job.token->cancel();
      job.dropped = true;
      any = true;
    }
    return any;
  }

  /// Jobs whose outcome is still to come (not ended, not dropped).
  int liveCount() const {
    int n = 0;
    for (const Job& job : jobs_) n += job.dropped ? 0 : 1;
    return n;
  }
  bool isBusy() const { return liveCount() > 0; }
  /// Threads still running, dropped jobs included.
  bool isRunning() const { return !jobs_.empty(); }

 private:
  struct Job {
    QFutureWatcher<JobOutcome<Result>>* watcher;
    std::shared_ptr<CancelToken> token;
    bool dropped;
  };

  static void run(QPromise<JobOutcome<Result>>& promise, const Work& work,
                  const std::shared_ptr<CancelToken>& token) {
    JobOutcome<Result> outcome;
    QElapsedTimer timer;
    timer.start();
    promise.setProgressRange(0, 100);
    JobContext context(token, [&promise](int percent, const QString& stage) {
      promise.setProgressValueAndText(percent, stage);
    });
    try {
      work(context, outcome.value);
    } catch (const Cancelled&) {
      outcome.cancelled = true;
    } catch (const std::exception& e) {
      fail(outcome, *token, QString::fromUtf8(e.what()));
    } catch (...) {
      fail(outcome, *token, QObject::tr("unknown error"));
    }
    outcome.seconds = timer.elapsed() / 1000.0;
    promise.addResult(std::move(outcome));
  }

  static void fail(JobOutcome<Result>& outcome, const CancelToken& token, const QString& message) {
    if (token.is_cancelled()) {
      outcome.cancelled = true;  // what broke was the stop we asked for
    } else {
      outcome.error = message;
    }
  }

  bool isNewestLive(const QFutureWatcher<JobOutcome<Result>>* watcher) const {
    for (auto it = jobs_.rbegin(); it != jobs_.rend(); ++it)
      if (!it->dropped) return it->watcher == watcher;
    return false;
  }

  void finish(QFutureWatcher<JobOutcome<Result>>* watcher, const Done& done) {
    bool dropped = true;
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      if (it->watcher != watcher) continue;
      dropped = it->dropped;
      jobs_.erase(it);
      break;
    }
    watcher->deleteLater();
    if (!dropped) {
      JobOutcome<Result> outcome;
      if (watcher->future().resultCount() > 0) {
        outcome = watcher->result();
      } else {
        outcome.error = QObject::tr("the task ended without a result");
      }
      done(outcome);
    }
    if (settled_) settled_();
  }

  QObject* owner_;
  std::list<Job> jobs_;  // in start order
  Progress progress_;
  std::function<void()> settled_;
};

}  // namespace exportlens::ui
