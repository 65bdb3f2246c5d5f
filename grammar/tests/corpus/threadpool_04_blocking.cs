// Thread-pool chapter (seed 004), listing 4: cooperative blocking (wrapped).
class Blocking
{
    private bool SpinThenBlockingWait(int millisecondsTimeout, CancellationToken cancellationToken)
    {
        bool spun = SpinWait(millisecondsTimeout);
        if (!spun)
        {
            ThreadPoolWorkQueue.TransferAllLocalWorkItemsToHighPriorityGlobalQueue();   // (1)!
            var mres = new SetOnInvokeMres();
            AddCompletionAction(mres, addBeforeOthers: true);
            bool notified = ThreadPool.NotifyThreadBlocked();                           // (2)!
            try { mres.Wait(-1, cancellationToken); }
            finally { if (notified) ThreadPool.NotifyThreadUnblocked(); }              // (3)!
        }
        // ...
    }

    public bool NotifyThreadBlocked()
    {
        if (!BlockingConfig.IsCooperativeBlockingEnabled || !Thread.CurrentThread.IsThreadPoolThread)
            return false;
        // ...
        _numBlockedThreads++;
        // ... будим Gate-поток: пора скорректировать цель
    }

    private short TargetThreadsGoalForBlockingAdjustment
        => _numBlockedThreads > 0
            ? (short)Math.Min(_minThreads + _numBlockedThreads, _maxThreads)    // (1)!
            : _minThreads;

    void PerformBlockingAdjustment()
    {
        // в PerformBlockingAdjustment:
        short immediately = Math.Min(_minThreads + ThreadsToAddWithoutDelay, _maxThreads);   // (2)!
        // дальше по ThreadsPerDelayStep потоков за DelayStepMs, но не дольше MaxDelayMs         // (3)!
    }
}
