//! Message handling fuzzed end to end: three clients over real sockets send a real server
//! random sequences of mostly valid messages — hello (as players, with tokens, as a bot),
//! create, join, legal and illegal moves in the rooms they know, offers, chat, seeks, the
//! lobby — sometimes mutated, sometimes raw text, binary or oversized frames, and reconnect.
//! After every step the sender proves its connection open with a round trip, and every frame
//! any client received must be a server message of a known type. The server must never
//! panic, close a connection only as documented (1009 for an oversized frame; the rate and
//! refusal limits are raised out of reach), and let two honest players finish a game after.
//!
//! `cargo test` runs a few cases and replays the kept corpus; a long run sets
//! `KIBITZ_FUZZ_CASES` (docs/benchmarks.md, "Fuzzing").

mod seen;
mod sent;

use std::collections::HashMap;
use std::sync::{Mutex, Once};

use crate::support::fuzz::{cases, corpus, mutate, mutation, Mutation, CLIENT_CORPUS};
use crate::support::{bounded, TestServer, BOT_KEY};
use futures::{SinkExt, StreamExt};
use game_core::protocol::{ErrorCode, ServerMsg};
use game_core::{AnyPosition, GameSpec};
use proptest::prelude::*;
use seen::*;
use sent::*;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const CLIENTS: usize = 3;

// ---------------------------------------------------------------------------------------------
// Panics on the server's threads are the server's
// ---------------------------------------------------------------------------------------------

/// The name of the fuzz runtime's threads, where the server under test runs its tasks.
const SERVER_THREADS: &str = "fuzz-server";

/// Panics on the server's threads since the process started: the fuzz runtime's, and the
/// store's own threads (`kibitz-store`, `kibitz-checkpoint`, whose names every server in the
/// process shares: a panic there is a server's all the same). Other tests share the process,
/// and a failure on their own test threads or runtimes is not a server's.
static SERVER_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records every panic of a server thread, then reports it as usual.
fn watch_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            if server_thread(name) {
                SERVER_PANICS
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(format!("{name}: {info}"));
            }
            report(info);
        }));
    });
}

/// Whether a thread of this name is the server's: the fuzz runtime's, or the store's.
fn server_thread(name: &str) -> bool {
    name == SERVER_THREADS || name.starts_with("kibitz-")
}

fn server_panics() -> Vec<String> {
    SERVER_PANICS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// The watch's rule: the fuzz runtime's threads and the store's are the server's; the test
/// threads and runtimes of other tests are not. (No panic is made here: a recorded one would
/// fail the fuzz cases running beside this test.)
#[test]
fn the_server_s_threads_are_watched_and_other_tests_are_not() {
    let rt = runtime();
    let task = rt.spawn(async { std::thread::current().name().map(String::from) });
    let name = rt.block_on(task).expect("the task ran");
    assert!(server_thread(name.as_deref().unwrap_or("")), "{name:?}");
    for name in ["kibitz-store", "kibitz-checkpoint"] {
        assert!(server_thread(name), "{name}");
    }
    for name in [
        "tokio-runtime-worker",
        "server_games::a_game_is_played_to_five",
        "main",
        "",
    ] {
        assert!(!server_thread(name), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// The clients
// ---------------------------------------------------------------------------------------------

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct FuzzClient {
    ws: Socket,
    token: Option<String>,
    player: Option<String>,
    syncs: u64,
}

impl FuzzClient {
    async fn open(url: &str) -> Result<FuzzClient, String> {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        Ok(FuzzClient {
            ws,
            token: None,
            player: None,
            syncs: 0,
        })
    }

    async fn send(&mut self, message: Message) -> Result<(), String> {
        self.ws
            .send(message)
            .await
            .map_err(|e| format!("send failed, the connection is gone: {e}"))
    }

    /// The next frame, checked: a text frame that is a server message, or the close.
    async fn next(&mut self, seen: &mut Seen) -> Result<Option<ServerMsg>, String> {
        loop {
            let frame = bounded(self.ws.next())
                .await
                .ok_or("no frame from the server in time")?;
            return match frame {
                Some(Ok(Message::Text(text))) => {
                    let msg = game_core::protocol::parse_server(&text)
                        .map_err(|e| format!("not a server message: {text}: {e}"))?;
                    if let ServerMsg::Welcome { token, player, .. } = &msg {
                        self.token = Some(token.clone());
                        self.player = Some(player.clone());
                    }
                    seen.note(&msg);
                    Ok(Some(msg))
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(frame))) => Err(format!("closed by the server: {frame:?}")),
                Some(Ok(other)) => Err(format!("a frame outside the protocol: {other:?}")),
                Some(Err(e)) => Err(format!("connection failed: {e}")),
                None => Err("connection ended".to_string()),
            };
        }
    }

    /// A round trip: a message of an unknown type draws an `unknown_type` error that names
    /// it, after the answers to everything sent before it.
    async fn sync(&mut self, seen: &mut Seen) -> Result<(), String> {
        self.syncs += 1;
        let marker = format!("zz-sync-{}", self.syncs);
        self.send(Message::Text(json!({ "t": marker }).to_string().into()))
            .await?;
        loop {
            if let Some(ServerMsg::Error {
                code: ErrorCode::UnknownType,
                reference: Some(r),
                ..
            }) = self.next(seen).await?
            {
                if r == marker {
                    return Ok(());
                }
            }
        }
    }

    /// After a frame over the limit: messages until the close, which must be 1009.
    async fn closed_as_too_big(&mut self, seen: &mut Seen) -> Result<(), String> {
        loop {
            let frame = bounded(self.ws.next())
                .await
                .ok_or("no close in time after an oversized frame")?;
            match frame {
                Some(Ok(Message::Close(Some(close)))) if u16::from(close.code) == 1009 => {
                    return Ok(())
                }
                Some(Ok(Message::Text(text))) => {
                    let msg = game_core::protocol::parse_server(&text)
                        .map_err(|e| format!("not a server message: {text}: {e}"))?;
                    seen.note(&msg);
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                other => {
                    return Err(format!(
                        "an oversized frame: expected close 1009, got {other:?}"
                    ))
                }
            }
        }
    }
}

/// The JSON of a message, with the rooms and moves it names resolved.
fn render(msg: &Msg, seen: &Seen, token: Option<&str>) -> Value {
    let games = games();
    let clocks = clocks();
    match msg {
        Msg::Hello { name, resume, bot } => {
            let mut hello = json!({"t":"hello","name":NAMES[*name]});
            if *resume {
                hello["token"] = json!(token.unwrap_or("0123456789abcdef0123456789abcdef01234567"));
            }
            if let Some(right_key) = bot {
                let key = if *right_key { BOT_KEY } else { "wrong" };
                hello["bot"] =
                    json!({"key":key,"games":["gomoku","othello","connect4"],"capacity":2});
            }
            hello
        }
        Msg::Create {
            game,
            seat,
            clock,
            opening,
            bots,
            private,
        } => {
            let spec = &games[*game % games.len()];
            let start: Option<GameSpec> = serde_json::from_value(spec.clone()).ok();
            let mut moves: Vec<String> = Vec::new();
            for m in opening {
                let next = match (m, &start) {
                    (MoveRef::Legal(k), Some(spec)) => legal_move(spec, &moves, *k),
                    (MoveRef::Legal(_), None) => "a1".to_string(),
                    (MoveRef::Text(t), _) => t.clone(),
                };
                moves.push(next);
            }
            let mut create = json!({
                "t":"create","game":spec,"seat":SEATS[*seat],
                "clock":clocks[*clock % clocks.len()],"opening":moves,"private":private,
            });
            if *bots {
                create["bots"] = json!({"white":3});
            }
            create
        }
        Msg::Join { room, player } => {
            json!({"t":"join","room":seen.room(room),"as":if *player {"player"} else {"spectator"}})
        }
        Msg::Move { room, mv, id } => {
            let room = seen.room(room);
            let mut m = json!({"t":"move","room":room,"move":seen.mv(&room, mv)});
            if let Some(id) = id {
                m["id"] = json!(format!("id{id}"));
            }
            m
        }
        Msg::RoomOnly { t, room } => json!({"t":ROOM_ONLY[*t],"room":seen.room(room)}),
        Msg::Reply { undo, room, accept } => json!({
            "t": if *undo {"undo_reply"} else {"draw_reply"}, "room": seen.room(room), "accept": accept,
        }),
        Msg::Chat { room, text } => json!({"t":"chat","room":seen.room(room),"text":text}),
        Msg::InviteBot { room, level } => {
            json!({"t":"invite_bot","room":seen.room(room),"level":level})
        }
        Msg::Seek { game, clock } => json!({
            "t":"seek","game":games[*game % games.len()],"clock":clocks[*clock % clocks.len()],
        }),
        Msg::Bare { t } => json!({"t":BARE[*t]}),
    }
}

/// Server limits out of the fuzz's reach, so that a connection closes only for what the
/// fuzz means to test (an oversized frame).
fn fuzz_limits(config: &mut kibitz_server::Config) {
    let limits = &mut config.limits;
    limits.player_msgs_per_window = u32::MAX / 2;
    limits.spectator_msgs_per_window = u32::MAX / 2;
    limits.bot_msgs_per_window = u32::MAX / 2;
    limits.max_refusals_per_window = u32::MAX / 2;
}

/// Two fresh players create a 15x15 game and play it to a five.
async fn honest_game(url: &str) -> Result<(), String> {
    let mut seen = Seen::default();
    let mut a = FuzzClient::open(url).await?;
    let mut b = FuzzClient::open(url).await?;
    let text = |v: Value| Message::Text(v.to_string().into());
    a.send(text(json!({"t":"hello","name":"Alice"}))).await?;
    // Not a name of the fuzzed steps: a bot among them may have made it an account's name,
    // which a guest may not take.
    b.send(text(json!({"t":"hello","name":"Bert"}))).await?;
    a.send(text(
        json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}),
    ))
    .await?;
    let room = loop {
        if let Some(ServerMsg::Created { room }) = a.next(&mut seen).await? {
            break room;
        }
    };
    b.send(text(json!({"t":"join","room":room,"as":"player"})))
        .await?;
    b.sync(&mut seen).await?;
    let moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];
    for (i, mv) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        mover
            .send(text(json!({"t":"move","room":room,"move":mv})))
            .await?;
        loop {
            match mover.next(&mut seen).await? {
                Some(ServerMsg::Moved { mv: played, .. }) if played == *mv => break,
                Some(ServerMsg::Error { code, message, .. }) => {
                    return Err(format!("honest move {mv} refused: {code}: {message}"))
                }
                _ => {}
            }
        }
    }
    loop {
        if let Some(ServerMsg::Over { result, .. }) = a.next(&mut seen).await? {
            return if result.reason == game_core::EndReason::Five {
                Ok(())
            } else {
                Err(format!("the honest game ended with {result:?}"))
            };
        }
    }
}

/// Runs one sequence of steps against a fresh server.
async fn run_case(steps: &[Step]) -> Result<(), String> {
    let server = TestServer::start_with(fuzz_limits).await;
    let url = server.url();
    let max_frame = kibitz_server::Limits::default().max_frame_bytes;
    let corpus = corpus(CLIENT_CORPUS);
    let mut seen = Seen::default();
    let mut clients = Vec::new();
    for _ in 0..CLIENTS {
        clients.push(FuzzClient::open(&url).await?);
    }
    for (i, step) in steps.iter().enumerate() {
        let context = |e: String| format!("step {i} {step:?}: {e}");
        let (client, frame) = match step {
            Step::Send { client, msg } => {
                let token = clients[*client].token.clone();
                let text = render(msg, &seen, token.as_deref()).to_string();
                (*client, Message::Text(text.into()))
            }
            Step::Mutated {
                client,
                msg,
                mutations,
            } => {
                let token = clients[*client].token.clone();
                let text = render(msg, &seen, token.as_deref()).to_string();
                (*client, Message::Text(mutate(&text, mutations).into()))
            }
            Step::Corpus {
                client,
                line,
                mutations,
            } => {
                let room = seen.room(&RoomRef::Seen(0));
                let text = corpus[line % corpus.len()].replace("$ROOM", &room);
                (*client, Message::Text(mutate(&text, mutations).into()))
            }
            Step::Raw { client, text } => (*client, Message::Text(text.clone().into())),
            Step::Play { room, mv } => {
                let room = seen.room(room);
                let mover = seen.to_move(&room);
                let client = clients
                    .iter()
                    .position(|c| c.player.is_some() && c.player == mover)
                    .unwrap_or(0);
                let m = json!({"t":"move","room":room,"move":seen.mv(&room, mv)});
                (client, Message::Text(m.to_string().into()))
            }
            Step::Sit { room } => {
                let room = seen.room(room);
                let client = clients
                    .iter()
                    .position(|c| c.player.as_ref().is_some_and(|p| !seen.seated(&room, p)))
                    .unwrap_or(0);
                let m = json!({"t":"join","room":room,"as":"player"});
                (client, Message::Text(m.to_string().into()))
            }
            Step::Binary { client, bytes } => (*client, Message::Binary(bytes.clone().into())),
            Step::Oversized { client } => {
                let c = &mut clients[*client];
                c.send(Message::Text("x".repeat(max_frame + 1).into()))
                    .await
                    .map_err(context)?;
                c.closed_as_too_big(&mut seen).await.map_err(context)?;
                clients[*client] = FuzzClient::open(&url).await.map_err(context)?;
                continue;
            }
            Step::Reconnect { client } => {
                let token = clients[*client].token.clone();
                let _ = clients[*client].ws.close(None).await;
                let mut fresh = FuzzClient::open(&url).await.map_err(context)?;
                if let Some(token) = token {
                    let hello = json!({"t":"hello","name":"Back","token":token});
                    fresh
                        .send(Message::Text(hello.to_string().into()))
                        .await
                        .map_err(context)?;
                }
                clients[*client] = fresh;
                clients[*client].sync(&mut seen).await.map_err(context)?;
                continue;
            }
        };
        clients[client].send(frame).await.map_err(context)?;
        clients[client].sync(&mut seen).await.map_err(context)?;
    }
    for client in &mut clients {
        client
            .sync(&mut seen)
            .await
            .map_err(|e| format!("at the end: {e}"))?;
    }
    honest_game(&url).await?;
    drop(clients);
    server.stop().await;
    let panics = server_panics();
    if panics.is_empty() {
        Ok(())
    } else {
        Err(format!("the server panicked: {panics:?}"))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(SERVER_THREADS)
        .enable_all()
        .build()
        .expect("a runtime")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(6),
        // Each case runs a server: shrinking a failure takes a while, and is worth it.
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_message_sequences_never_break_the_server(steps in case()) {
        watch_panics();
        let outcome = runtime().block_on(run_case(&steps));
        prop_assert!(outcome.is_ok(), "{}", outcome.err().unwrap_or_default());
    }
}

/// The kept corpus, replayed by a seated player in a game in progress (and the first lines
/// by a client that has not said hello): typed answers, the connection kept, the game
/// playable after.
#[test]
fn every_corpus_frame_is_answered_and_the_connection_kept() {
    watch_panics();
    let lines = corpus(CLIENT_CORPUS);
    let mut steps = vec![
        Step::Send {
            client: 1,
            msg: Msg::Hello {
                name: 0,
                resume: false,
                bot: None,
            },
        },
        Step::Send {
            client: 2,
            msg: Msg::Hello {
                name: 1,
                resume: false,
                bot: None,
            },
        },
        Step::Send {
            client: 1,
            msg: Msg::Create {
                game: 2,
                seat: 0,
                clock: 0,
                opening: Vec::new(),
                bots: false,
                private: false,
            },
        },
        Step::Send {
            client: 2,
            msg: Msg::Join {
                room: RoomRef::Seen(0),
                player: true,
            },
        },
        Step::Send {
            client: 1,
            msg: Msg::Move {
                room: RoomRef::Seen(0),
                mv: MoveRef::Legal(0),
                id: None,
            },
        },
    ];
    for line in 0..lines.len() {
        // Before hello.
        steps.push(Step::Corpus {
            client: 0,
            line,
            mutations: Vec::new(),
        });
        // Seated, in a game.
        steps.push(Step::Corpus {
            client: 1 + line % 2,
            line,
            mutations: Vec::new(),
        });
    }
    steps.push(Step::Oversized { client: 2 });
    let outcome = runtime().block_on(run_case(&steps));
    assert!(outcome.is_ok(), "{}", outcome.err().unwrap_or_default());
}
