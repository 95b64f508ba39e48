//! The demo's weather API, served in-process on 127.0.0.1 (any free port) so that the demo runs
//! with no network: `/current`, `/forecast`, `/stations` answer JSON, `/docs` a small HTML page,
//! anything else 404. One thread per connection, one response each, then the connection closes.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A running demo API; stopped when dropped.
pub struct DemoApi {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl DemoApi {
    pub fn start() -> std::io::Result<DemoApi> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    std::thread::spawn(move || {
                        let _ = serve(stream);
                    });
                }
            }
        });
        Ok(DemoApi { addr, stop })
    }
}

impl Drop for DemoApi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

fn serve(mut stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let target = head.split_whitespace().nth(1).unwrap_or("/");
    let (status, kind, body) = answer(target);
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes())
}

/// The value of `key` in the query of `target`.
fn query<'a>(target: &'a str, key: &str) -> Option<&'a str> {
    target.split_once('?')?.1.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then_some(v)
    })
}

/// Status line, content type and body for a request target.
pub fn answer(target: &str) -> (&'static str, &'static str, String) {
    let path = target.split('?').next().unwrap_or("/");
    let city = query(target, "city").unwrap_or("Berlin");
    let json = "application/json";
    match path {
        "/current" => (
            "200 OK",
            json,
            format!(r#"{{"city":"{city}","tempC":7.5,"condition":"cloudy"}}"#),
        ),
        "/forecast" => {
            let days: usize = query(target, "days")
                .and_then(|d| d.parse().ok())
                .unwrap_or(3)
                .clamp(1, 7);
            let list: Vec<String> = (1..=days)
                .map(|d| format!(r#"{{"day":{d},"minC":{},"maxC":{}}}"#, 2 + d, 9 + d))
                .collect();
            (
                "200 OK",
                json,
                format!(r#"{{"city":"{city}","days":[{}]}}"#, list.join(",")),
            )
        }
        "/stations" => {
            let country = query(target, "country").unwrap_or("DE");
            (
                "200 OK",
                json,
                format!(
                    r#"{{"stations":[{{"id":"{country}.1","name":"Central"}},{{"id":"{country}.2","name":"Airport"}}]}}"#
                ),
            )
        }
        "/docs" => (
            "200 OK",
            "text/html; charset=utf-8",
            "<!doctype html><title>Demo Weather API</title><h1>Demo Weather API</h1>".into(),
        ),
        _ => ("404 Not Found", json, r#"{"error":"not found"}"#.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_answer_json_and_404() {
        assert!(answer("/current?city=Oslo").2.contains("\"Oslo\""));
        assert_eq!(
            answer("/forecast?city=Oslo&days=7")
                .2
                .matches("\"day\"")
                .count(),
            7
        );
        assert_eq!(answer("/nope").0, "404 Not Found");
        let api = DemoApi::start().unwrap();
        let mut s = TcpStream::connect(api.addr).unwrap();
        s.write_all(b"GET /stations?country=PT HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 200 OK"), "{out}");
        assert!(out.contains("PT.1"));
    }
}
