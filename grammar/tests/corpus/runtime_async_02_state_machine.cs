// Runtime-async article (seed 001), listing 2: the hand-written state machine.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class StateMachine
{
    private int state = 0;

    // 建立一個用來保存結果的 Task<int>。
    // 目前的非同步方法完成時，這個 Task<int> 也會進入完成狀態。
    public Task<int> ResultTask { get; } = CreateIncompleteTask<int>();

    private TaskAwaiter awaiter;

    public void MoveNext()
    {
        try
        {
            switch (state)
            {
                case 0:
                {
                    awaiter = Task.Delay(1000).GetAwaiter();

                    if (!awaiter.IsCompleted)
                    {
                        // 記錄重新開始的位置。
                        state = 1;

                        // 註冊 continuation。
                        // 當 Task.Delay 完成時，已註冊的 continuation 會被呼叫，
                        // 狀態機的 MoveNext 會再次執行。
                        // continuation 最終會在哪裡執行，除了 awaiter 之外，
                        // 也取決於目前的 SynchronizationContext、TaskScheduler 等因素。
                        awaiter.OnCompleted(MoveNext);
                        return;
                    }

                    goto case 1;
                }

                case 1:
                {
                    state = -1;

                    // 確認 await 的操作已正常完成。
                    // 如果失敗，會在這裡拋出例外。
                    awaiter.GetResult();
                    // 讓 Task<int> 完成，並將結果設定為 42。
                    CompleteTask(ResultTask, 42);
                    return;
                }
            }
        }
        catch (Exception ex)
        {
            // 如果 MoveNext 發生例外，就讓 Task<int> 進入失敗狀態。
            // 如此一來，呼叫端在 await GetDataAsync() 時就能接收到例外並處理。
            FailTask(ResultTask, ex);
        }
    }
}
