//! A small HTTP/1.1 server for the pretest tests, on 127.0.0.x, with misbehaving routes. Every
//! connection is answered on its own thread and closed after one response.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct TestServer {
    pub base: String,
    /// The most requests that were in flight at once.
    pub max_in_flight: Arc<AtomicUsize>,
    /// Every request head received (request line and headers).
    pub heads: Arc<Mutex<Vec<String>>>,
}

/// Starts a server on `ip` (any free port). Routes by path:
/// `/ok` 200 JSON, `/empty` 200 `[]`, `/echo` the request target back in JSON, `/status/<n>` that status, `/flaky` 429 once then 200,
/// `/always429` 429, `/slow` 2 s before answering, `/big` 64 KiB, `/loop` a redirect to itself,
/// `/badjson` invalid JSON, `/latin1` non-UTF-8 bytes, `/text` plain text,
/// `/latency/<ms>` a JSON answer after that many milliseconds, `/drip` 1 byte per 200 ms forever,
/// `/hang` accepts and never answers.
pub fn start(ip: &str) -> TestServer {
    let listener = TcpListener::bind((ip, 0)).expect("bind test server");
    let base = format!("http://{}", listener.local_addr().unwrap());
    let in_flight = Arc::new(AtomicUsize::new(0));
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let heads = Arc::new(Mutex::new(Vec::new()));
    let flaky = Arc::new(Mutex::new(HashMap::<String, usize>::new()));
    {
        let (in_flight, max_in_flight, heads) =
            (in_flight.clone(), max_in_flight.clone(), heads.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (in_flight, max_in_flight, heads, flaky) = (
                    in_flight.clone(),
                    max_in_flight.clone(),
                    heads.clone(),
                    flaky.clone(),
                );
                std::thread::spawn(move || {
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    max_in_flight.fetch_max(now, Ordering::SeqCst);
                    let _ = handle(stream, &heads, &flaky);
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
    }
    TestServer {
        base,
        max_in_flight,
        heads,
    }
}

/// A port on 127.0.0.1 where nothing listens.
pub fn refused_base() -> String {
    // Port 1 (tcpmux) is privileged and unused here, so nothing a test starts can take it; a
    // port freed by binding and dropping could be handed to another test's server meanwhile.
    "http://127.0.0.1:1".to_owned()
}

fn handle(
    mut stream: TcpStream,
    heads: &Mutex<Vec<String>>,
    flaky: &Mutex<HashMap<String, usize>>,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte)? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body)?;
    heads.lock().unwrap().push(head.clone());
    let target = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let path = target.split('?').next().unwrap_or("/").to_owned();
    let reply = |stream: &mut TcpStream, status: u16, kind: &str, body: &[u8], extra: &str| {
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)
    };
    match path.as_str() {
        "/ok" => reply(
            &mut stream,
            200,
            "application/json",
            br#"{"items":[1,2,3]}"#,
            "",
        ),
        "/empty" => reply(&mut stream, 200, "application/json", b"[]", ""),
        "/echo" => {
            // An API that echoes the request target (query string included) back.
            let body = serde_json::json!({"items": [target.clone()]}).to_string();
            reply(&mut stream, 200, "application/json", body.as_bytes(), "")
        }
        "/flaky" => {
            let seen = {
                let mut map = flaky.lock().unwrap();
                let count = map.entry(target.clone()).or_insert(0);
                *count += 1;
                *count
            };
            if seen == 1 {
                reply(
                    &mut stream,
                    429,
                    "application/json",
                    br#"{"error":"slow down"}"#,
                    "",
                )
            } else {
                reply(&mut stream, 200, "application/json", br#"{"ok":true}"#, "")
            }
        }
        "/always429" => reply(&mut stream, 429, "application/json", b"{}", ""),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(2));
            reply(
                &mut stream,
                200,
                "application/json",
                br#"{"late":true}"#,
                "",
            )
        }
        "/big" => reply(
            &mut stream,
            200,
            "application/json",
            format!("[\"{}\"]", "x".repeat(65536)).as_bytes(),
            "",
        ),
        "/loop" => reply(&mut stream, 302, "text/plain", b"", "Location: /loop\r\n"),
        "/badjson" => reply(&mut stream, 200, "application/json", b"{not json", ""),
        "/latin1" => reply(&mut stream, 200, "application/json", b"\"caf\xe9\"", ""),
        "/text" => reply(&mut stream, 200, "text/plain", b"plain words", ""),
        "/drip" => {
            stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
            )?;
            loop {
                stream.write_all(b" ")?;
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        "/hang" => {
            std::thread::sleep(Duration::from_secs(30));
            Ok(())
        }
        other => {
            if let Some(code) = other.strip_prefix("/status/") {
                let code: u16 = code.parse().unwrap_or(500);
                reply(
                    &mut stream,
                    code,
                    "application/json",
                    br#"{"error":"nope"}"#,
                    "",
                )
            } else if let Some(ms) = other.strip_prefix("/latency/") {
                std::thread::sleep(Duration::from_millis(ms.parse().unwrap_or(50)));
                reply(&mut stream, 200, "application/json", br#"{"ok":1}"#, "")
            } else {
                reply(&mut stream, 404, "application/json", b"{}", "")
            }
        }
    }
}
