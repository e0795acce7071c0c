//! Why a room refuses a request: one cause per variant, each with its wire code. The room's
//! task answers every one of them through the same reply (`crate::refusal`).

use game_core::error::{IllegalMoveError, MoveError};
use game_core::opening::ChoiceError;
use game_core::protocol::{ErrorCode, BOT_LEVELS};
use game_core::StepError;
use thiserror::Error;

use crate::refusal::Refusal;

/// A refused request in a room, or in making one.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RoomError {
    // ---- turns and moves
    #[error("the game has not started")]
    NotStarted,
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("your time ran out")]
    TimeRanOut,
    #[error("both sides have moved: the game can no longer be aborted (resign instead)")]
    TooLateToAbort,
    /// Not a move of this game, or not legal here (the code tells forbidden from illegal).
    #[error("{0}")]
    Move(MoveError),
    /// An opening rule's decision that is no choice, or not one allowed now.
    #[error("{0}")]
    Choice(ChoiceError),
    #[error("not a move")]
    NotAMove,
    /// A move's request `id` holding control characters, which a store may not keep.
    #[error("a move's id may not hold control characters")]
    BadMoveId,
    /// A move's request `id` longer than the server keeps: ids are kept with the room's
    /// answers and stored with the move.
    #[error("a move's id may be at most {0} characters long")]
    LongMoveId(usize),
    #[error("you are not seated in this room")]
    NotSeated,

    // ---- offers
    #[error("an opening rule's decisions cannot be taken back")]
    UndoInOpening,
    #[error("you have no move to take back")]
    NothingToTakeBack,
    #[error("your undo request is already pending")]
    UndoPending,
    #[error("there is no undo request to answer")]
    NoUndoToAnswer,
    #[error("you cannot answer your own undo request")]
    OwnUndo,
    #[error("your draw offer is already pending")]
    DrawPending,
    #[error("there is no draw offer to answer")]
    NoDrawToAnswer,
    #[error("a rematch is possible once the game is over")]
    RematchTooEarly,

    // ---- seats and invitations
    #[error("both seats are taken")]
    SeatsTaken,
    /// A player `join` in a finished game: `room_full` too, so a client watches instead.
    #[error("the game is over")]
    SeatsClosed,
    #[error("there is no free seat")]
    NoFreeSeat,
    #[error("bot levels are {}..={}", BOT_LEVELS.start(), BOT_LEVELS.end())]
    BadBotLevel,
    #[error("no bot is free to play this game")]
    NoBotAvailable,

    // ---- chat
    #[error("empty chat line")]
    EmptyChat,
    #[error("chat lines are at most {0} characters")]
    ChatTooLong(usize),
    #[error("chat lines may not hold control characters (newline and tab included)")]
    ChatControl,
    #[error("join the room to chat")]
    NotInRoom,
    #[error("you just said that")]
    ChatRepeated,
    #[error("at most {lines} chat lines per {secs} s")]
    ChatRate { lines: u32, secs: u64 },
    #[error("that line holds a word this hall does not allow")]
    ChatWord,
    #[error("{0}")]
    Sanctioned(crate::moderation::in_force::Sanctioned),

    // ---- making a room
    #[error("{0}")]
    BadGame(String),
    #[error("{0}")]
    BadClock(String),
    #[error("opening too long: at most {0} moves")]
    OpeningTooLong(usize),
    #[error("bad opening: {0}")]
    BadOpening(String),
    #[error("the opening already ends the game")]
    OpeningEnds,
    #[error("that seat is promised to a bot")]
    SeatPromised,
    #[error("at most {0} open rooms per player")]
    TooManyRooms(usize),
    #[error("at most {0} open rooms from one address")]
    TooManyRoomsFromAddress(usize),
    #[error("no room {0:?}")]
    NoSuchRoom(String),
    #[error("only a standard board with no preset opening moves can be rated (Gomoku 15x15, Othello, Connect Four 7x6)")]
    NotRateable,
    #[error("a rated game is played between accounts: register or sign in first")]
    AccountNeeded,
    #[error(
        "a bot plays rated games at level {} only",
        crate::accounts::ratings::RATED_BOT_LEVEL
    )]
    RatedBotLevel,
    #[error("a tournament game cannot be aborted (resign instead)")]
    AbortInTournament,
    #[error("your opponent is here: there is nothing to claim")]
    OpponentHere,
    #[error("your opponent may still come back: you can claim in {0} s")]
    ClaimTooEarly(u64),
    /// Cluster mode: the node that owns the room, or Redis, cannot be reached now.
    #[error("the room's server cannot be reached; try again")]
    Unreachable,

    // ---- the store
    /// The write of what the request changes failed; nothing changed.
    #[error("{0} could not be stored; try again")]
    NotStored(&'static str),
    /// A read of the store failed: the room may exist, but cannot be loaded now.
    #[error("the stored games cannot be read now; try again")]
    NotRead,
    /// A stored game that no longer replays (a reload refuses the room).
    #[error("stored game does not replay: {0}")]
    Replay(String),
}

impl From<StepError> for RoomError {
    fn from(e: StepError) -> RoomError {
        match e {
            StepError::Move(e) => RoomError::Move(e),
            StepError::Choice(e) => RoomError::Choice(e),
        }
    }
}

impl Refusal for RoomError {
    fn code(&self) -> ErrorCode {
        match self {
            RoomError::NotStarted | RoomError::NotYourTurn => ErrorCode::NotYourTurn,
            RoomError::GameOver | RoomError::TimeRanOut => ErrorCode::GameOver,
            RoomError::Move(MoveError::Illegal(IllegalMoveError::Forbidden(..))) => {
                ErrorCode::Forbidden
            }
            RoomError::Move(MoveError::Illegal(IllegalMoveError::GameOver)) => ErrorCode::GameOver,
            RoomError::Move(_) | RoomError::Choice(_) | RoomError::NotAMove => {
                ErrorCode::IllegalMove
            }
            RoomError::NotSeated | RoomError::NotInRoom => ErrorCode::NotAPlayer,
            RoomError::SeatsTaken | RoomError::SeatsClosed | RoomError::NoFreeSeat => {
                ErrorCode::RoomFull
            }
            RoomError::NoBotAvailable => ErrorCode::NoBotAvailable,
            RoomError::ChatTooLong(_) => ErrorCode::TooLong,
            RoomError::ChatRepeated | RoomError::ChatRate { .. } => ErrorCode::RateLimited,
            RoomError::ChatWord => ErrorCode::Forbidden,
            RoomError::Sanctioned(_) => ErrorCode::Sanctioned,
            RoomError::BadGame(_)
            | RoomError::OpeningTooLong(_)
            | RoomError::BadOpening(_)
            | RoomError::OpeningEnds => ErrorCode::BadGame,
            RoomError::NoSuchRoom(_) => ErrorCode::NoSuchRoom,
            RoomError::AccountNeeded => ErrorCode::AccountNeeded,
            RoomError::NotRateable => ErrorCode::BadGame,
            RoomError::NothingToTakeBack
            | RoomError::UndoInOpening
            | RoomError::TooLateToAbort
            | RoomError::UndoPending
            | RoomError::NoUndoToAnswer
            | RoomError::OwnUndo
            | RoomError::DrawPending
            | RoomError::NoDrawToAnswer
            | RoomError::RematchTooEarly
            | RoomError::BadBotLevel
            | RoomError::RatedBotLevel
            | RoomError::AbortInTournament
            | RoomError::OpponentHere
            | RoomError::ClaimTooEarly(_)
            | RoomError::EmptyChat
            | RoomError::ChatControl
            | RoomError::BadMoveId
            | RoomError::LongMoveId(_)
            | RoomError::BadClock(_)
            | RoomError::SeatPromised
            | RoomError::TooManyRooms(_)
            | RoomError::TooManyRoomsFromAddress(_)
            | RoomError::NotStored(_)
            | RoomError::NotRead
            | RoomError::Unreachable
            | RoomError::Replay(_) => ErrorCode::BadRequest,
        }
    }
}
