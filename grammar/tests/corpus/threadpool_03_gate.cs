// Thread-pool chapter (seed 004), listing 3: starvation detection (wrapped).
class GateThread
{
    void Check()
    {
        // поток ".NET TP Gate" просыпается примерно раз в 500 мс
        if (!disableStarvationDetection
            && threadPoolInstance._pendingBlockingAdjustment == PendingBlockingAdjustment.None
            && threadPoolInstance._separated.numRequestedWorkers > 0               // (1)!
            && SufficientDelaySinceLastDequeue(threadPoolInstance))                // (2)!
        {
            // ...
            while (threadCounts.NumProcessingWork < threadPoolInstance._maxThreads
                && threadCounts.NumProcessingWork >= threadCounts.NumThreadsGoal)
            {
                newCounts.NumThreadsGoal = (short)(threadCounts.NumProcessingWork + 1);   // (3)!
                // ...
            }
        }
    }

    private static bool SufficientDelaySinceLastDequeue(PortableThreadPool threadPoolInstance)
    {
        int num = Environment.TickCount - threadPoolInstance._separated.lastDequeueTime;
        uint num2 = ((threadPoolInstance._cpuUtilization >= 80)
            ? ((uint)(threadPoolInstance._separated.counts.NumThreadsGoal * 1000))   // (4)!
            : 500u);
        return (uint)num > num2;                                                      // (5)!
    }
}
