import express from 'express';

const app = express();
app.get('/', (req, res) => res.send('hello'));
app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(3000);
