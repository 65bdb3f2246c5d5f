// Runtime-async article (seed 001), listing 3: the kickoff stub (wrapped in a class).
using System.Threading.Tasks;

class Sample
{
    public Task<int> GetDataAsync()
    {
        var stateMachine = new StateMachine();
        stateMachine.MoveNext();
        return stateMachine.ResultTask;
    }
}
