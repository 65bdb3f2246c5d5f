// Thread-pool chapter (seed 004), listing 1: Enqueue/Dequeue (wrapped in a class).
class ThreadPoolWorkQueue
{
    public void Enqueue(object callback, bool forceGlobal)
    {
        ThreadPoolWorkQueueThreadLocals threadLocals;
        if (!forceGlobal && (threadLocals = ThreadPoolWorkQueueThreadLocals.threadLocals) != null)
        {
            threadLocals.workStealingQueue.LocalPush(callback);        // (1)!
        }
        else
        {
            workItems.Enqueue(callback);                               // (2)!
        }
        EnsureThreadRequested();                                       // (3)!
    }

    public object Dequeue(ThreadPoolWorkQueueThreadLocals tl, ref bool missedSteal)
    {
        object workItem = tl.workStealingQueue.LocalPop();             // (4)!
        if (workItem != null) return workItem;

        // ... очередь высокого приоритета (highPriorityWorkItems) ...  // (5)!

        if (workItems.TryDequeue(out workItem)) return workItem;       // (6)!

        // ... перебор чужих локальных очередей начиная со случайной ...
        WorkStealingQueue workStealingQueue2 = queues[num7];
        if (workStealingQueue2 != workStealingQueue && workStealingQueue2.CanSteal)
        {
            workItem = workStealingQueue2.TrySteal(ref missedSteal);   // (7)!
            if (workItem != null) return workItem;
        }
        return null;
    }
}
