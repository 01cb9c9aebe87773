/**
 * One training line as Tesseract's `lstm.train` wants it (decision 0081): BASE.png, its text in
 * BASE.gt.txt, and BASE.box, a WordStr box that makes the whole image the line. train.sh turns each
 * into BASE.lstmf with `tesseract BASE.png BASE --psm 13 lstm.train`.
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

export async function writeTrainingLine(base: string, png: Buffer, text: string): Promise<void> {
  const { width, height } = await sharp(png).metadata();
  writeFileSync(`${base}.png`, png);
  writeFileSync(`${base}.gt.txt`, `${text}\n`);
  writeFileSync(`${base}.box`, `WordStr 0 0 ${width} ${height} 0 #${text}\n\t ${width} 0 ${width! + 1} ${height} 0\n`);
}
