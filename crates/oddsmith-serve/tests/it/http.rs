//! A minimal blocking HTTP/1.1 client over a TCP stream (one request per connection), so the
//! tests need no HTTP client dependency.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::Value;

/// Sends requests as the page would: with the token and this server's origin.
pub struct Client {
    addr: SocketAddr,
    token: Option<String>,
    /// The `Origin` sent with a POST (default: the server's own).
    pub origin: Option<String>,
    /// The `Host` sent (default: the server's address).
    pub host: Option<String>,
}

/// A response.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Client {
    pub fn new(addr: SocketAddr, token: Option<String>) -> Client {
        Client {
            addr,
            token,
            origin: None,
            host: None,
        }
    }

    pub fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None)
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.send("POST", path, Some(body.to_string()))
    }

    fn send(&self, method: &str, path: &str, body: Option<String>) -> Reply {
        let host = self.host.clone().unwrap_or_else(|| self.addr.to_string());
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        if let Some(b) = &body {
            let origin = self
                .origin
                .clone()
                .unwrap_or_else(|| format!("http://{}", self.addr));
            req.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\nOrigin: {origin}\r\n",
                b.len()
            ));
            if let Some(t) = &self.token {
                req.push_str(&format!("X-Oddsmith-Token: {t}\r\n"));
            }
        }
        req.push_str("\r\n");
        let mut s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(req.as_bytes()).unwrap();
        if let Some(b) = &body {
            // A refused body may close the connection before it is all sent.
            let _ = s.write_all(b.as_bytes());
        }
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        parse(&raw)
    }
}

fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}
